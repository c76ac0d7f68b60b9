import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { AnalysisResult } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { OfflineResult } from './components/OfflineResult.tsx';

const offline = (over: Partial<AnalysisResult>): AnalysisResult => ({
  id: 0,
  outcome: 'diagnosis',
  rust_class: 'common_rust',
  confidence: 0.9,
  unsure: false,
  probabilities: { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 },
  educational_resources: [],
  feedback: {
    finding: { key: 'analysis.result.heading.rust_maize' },
    explanation: { key: 'analysis.result.explanation.rust_maize' },
    headline: '',
    advice: [],
    more: [],
    advice_crop: 'maize',
    sources: [],
  },
  model_version: 'v2',
  created_at: '2026-11-25T08:00:00.000Z',
  image_url: 'blob:http://localhost/photo',
  crop: 'maize',
  heatmap_url: null,
  photos: [],
  second_photo: { reason: null, runner_up: null, photos_left: 0 },
  ...over,
});

describe('a diagnosis made on the phone', () => {
  it('shows the photo with the rust-coloured spots circled, and no heatmap switch (experts only, decision 0054)', () => {
    const spots = { side: 160, aspect: 1, boxes: [[20, 20, 30, 28] as [number, number, number, number]] };
    renderWithProviders(
      <OfflineResult
        result={offline({ rust_spots: spots, severity: { share: 0.08, band: 'moderate', estimate: true } })}
      />,
    );
    const photo = screen.getByAltText('The analysed photo');
    expect(photo.getAttribute('src')).toBe('blob:http://localhost/photo');
    expect(screen.getByTestId('rust-spots').querySelectorAll('g:last-child ellipse')).toHaveLength(1);
    expect(screen.getByTestId('rust-spots-line').textContent).toMatch(/8\s?% of the leaf/);
    expect(screen.queryByTestId('heatmap-toggle')).toBeNull();
  });

  it('circles nothing on a photo without a leaf', () => {
    renderWithProviders(
      <OfflineResult result={offline({ outcome: 'not_leaf', rust_class: null, heatmap_url: null })} />,
    );
    expect(screen.getByAltText('The analysed photo')).toBeTruthy();
    expect(screen.queryByTestId('rust-spots')).toBeNull();
  });
});
