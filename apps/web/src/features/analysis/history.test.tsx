import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnalysisResult, NotificationList as List } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeNetwork, json } from '../../test/fakeServer.ts';
import AnalysisHistoryPage from './pages/AnalysisHistoryPage.tsx';
import { NotificationList } from '../../components/notifications/NotificationList.tsx';

afterEach(() => vi.unstubAllGlobals());

const result = (over: Partial<AnalysisResult>): AnalysisResult => ({
  id: 1,
  outcome: 'diagnosis',
  rust_class: 'common_rust',
  confidence: 0.9,
  unsure: false,
  probabilities: { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 },
  educational_resources: [],
  feedback: {
    finding: { key: 'analysis.result.heading.rust_beans' },
    explanation: { key: 'analysis.result.explanation.rust_beans' },
    headline: '',
    advice: [],
    more: [],
    advice_crop: 'beans',
    sources: [],
  },
  model_version: 'v1',
  created_at: '2026-11-20T08:00:00.000Z',
  image_url: '/api/rust-detection/1/image/',
  crop: 'beans',
  heatmap_url: null,
  expert_verdict: null,
  photos: [
    { position: 0, url: `/api/rust-detection/${over.id ?? 1}/image/`, rust_class: 'common_rust', confidence: 0.9 },
  ],
  second_photo: { reason: null, runner_up: null, photos_left: 0 },
  ...over,
});

describe("an expert's verdict for the farmer", () => {
  it('marks reviewed photos in the history with the verdict, rust named for the crop', async () => {
    fakeNetwork(({ url }) =>
      url.startsWith('/api/rust-detection/?')
        ? json({
            count: 2,
            next: null,
            previous: null,
            results: [result({ id: 1, expert_verdict: 'common_rust' }), result({ id: 2 })],
          })
        : json({}, 404),
    );
    renderWithProviders(<AnalysisHistoryPage />);
    const rows = await screen.findAllByTestId('history-item');
    expect(within(rows[0]!).getByTestId('reviewed-badge').textContent).toBe(
      'Reviewed by an expert: Bean rust (Uromyces appendiculatus)',
    );
    expect(within(rows[1]!).queryByTestId('reviewed-badge')).toBeNull();
  });

  it('opens the analysis a verdict notification names, from the history address', async () => {
    fakeNetwork(({ url }) => {
      if (url.startsWith('/api/rust-detection/?')) return json({ count: 0, next: null, previous: null, results: [] });
      if (url.startsWith('/api/rust-detection/7/')) return json(result({ id: 7, expert_verdict: 'healthy' }));
      return json({}, 404);
    });
    renderWithProviders(<AnalysisHistoryPage />, { route: '/account/addresses/analysis-history?analysis=7' });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByTestId('analysis-result')).toBeTruthy());
  });

  it('makes a verdict notification a link to its analysis, marked read when opened', async () => {
    const list: List = {
      count: 2,
      next: null,
      previous: null,
      unread_count: 1,
      results: [
        {
          id: 5,
          type: 'expert_review',
          message: 'An expert reviewed your photo: rust',
          date: '2026-11-25T08:00:00.000Z',
          read: false,
          data: { analysis_id: 7, verdict: 'common_rust' },
        },
        {
          id: 4,
          type: 'booking_approved',
          message: 'Your booking was approved',
          date: '2026-11-24T08:00:00.000Z',
          read: true,
          data: { booking_id: 3 },
        },
      ],
    };
    const sent = fakeNetwork(({ url }) =>
      url.startsWith('/api/notifications/?') ? json(list) : json({ ...list.results[0], read: true }),
    );
    const user = userEvent.setup();
    renderWithProviders(<NotificationList />);
    const link = await screen.findByRole('link', { name: 'An expert reviewed your photo: rust' });
    expect(link.getAttribute('href')).toBe('/account/addresses/analysis-history?analysis=7');
    expect(screen.queryByRole('link', { name: 'Your booking was approved' })).toBeNull();
    await user.click(link);
    await waitFor(() => expect(sent.some((s) => s.method === 'PUT' || s.method === 'POST')).toBe(true));
  });
});
