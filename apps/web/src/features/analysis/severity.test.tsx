import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { AnalysisResult } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { ResultCard } from './components/ResultCard.tsx';

const rust: AnalysisResult = {
  id: 7,
  outcome: 'diagnosis',
  rust_class: 'common_rust',
  confidence: 0.95,
  unsure: false,
  probabilities: { common_rust: 0.95, healthy: 0.03, other_disease: 0.02 },
  crop: 'beans',
  heatmap_url: null,
  educational_resources: [],
  feedback: {
    message: 'Signs of rust',
    explanation: 'Rust.',
    headline: 'Rust on beans: act early, before flowering.',
    advice: ['Walk the field this week.'],
    more: [],
    advice_crop: 'beans',
    sources: [],
  },
  model_version: 'v-test',
  created_at: '2026-03-02T08:00:00.000Z',
  image_url: '/api/rust-detection/7/image/',
  photos: [{ position: 0, url: '/api/rust-detection/7/image/', rust_class: 'common_rust', confidence: 0.95 }],
  second_photo: { reason: null, runner_up: null, photos_left: 0 },
  severity: { share: 0.031, band: 'low', estimate: true },
};

describe('severity on the result', () => {
  it('shows a low share as an estimate, with scouting advice', () => {
    renderWithProviders(<ResultCard result={rust} actions={false} />);
    expect(screen.getByTestId('severity-band').textContent).toMatch(/Low: about 3\s?% of the leaf/);
    expect(screen.getByTestId('severity-advice').textContent).toMatch(/Check the field again within a week/);
    expect(screen.getByTestId('severity-estimate').textContent).toMatch(/An estimate/);
  });

  it('points a severe share at the spray advice, saying the advice names no share, and drops "estimate" once checked', () => {
    renderWithProviders(
      <ResultCard result={{ ...rust, severity: { share: 0.31, band: 'severe', estimate: false } }} actions={false} />,
    );
    expect(screen.getByTestId('severity-band').textContent).toMatch(/Severe/);
    expect(screen.getByTestId('severity-advice').textContent).toMatch(/names no leaf share/);
    expect(screen.getByTestId('severity-estimate').textContent).not.toMatch(/estimate/i);
  });

  it('shows nothing without a severity (answers other than confident rust)', () => {
    renderWithProviders(<ResultCard result={{ ...rust, severity: null }} actions={false} />);
    expect(screen.queryByTestId('result-severity')).toBeNull();
  });
});
