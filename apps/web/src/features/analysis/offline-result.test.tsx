import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
  feedback: { message: '', explanation: '', headline: '', advice: [], more: [], advice_crop: 'maize', sources: [] },
  model_version: 'v2',
  created_at: '2026-11-25T08:00:00.000Z',
  image_url: 'blob:http://localhost/photo',
  crop: 'maize',
  heatmap_url: 'blob:http://localhost/heatmap',
  photos: [],
  second_photo: { reason: null, runner_up: null, photos_left: 0 },
  ...over,
});

describe('a diagnosis made on the phone (issue 39)', () => {
  it('shows the photo, and the heatmap drawn on the phone over it when asked', async () => {
    renderWithProviders(<OfflineResult result={offline({})} />);
    const photo = screen.getByAltText('The analysed photo');
    expect(photo.getAttribute('src')).toBe('blob:http://localhost/photo');
    expect(screen.queryByTestId('heatmap-overlay')).toBeNull();
    await userEvent.click(screen.getByTestId('heatmap-toggle'));
    expect(screen.getByTestId('heatmap-overlay').getAttribute('src')).toBe('blob:http://localhost/heatmap');
  });

  it('offers no switch when the phone drew no heatmap (a photo without a leaf)', () => {
    renderWithProviders(
      <OfflineResult result={offline({ outcome: 'not_leaf', rust_class: null, heatmap_url: null })} />,
    );
    expect(screen.getByAltText('The analysed photo')).toBeTruthy();
    expect(screen.queryByTestId('heatmap-toggle')).toBeNull();
  });
});
