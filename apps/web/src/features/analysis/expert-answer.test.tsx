import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExpertAnswer, ExpertReview } from '@kutu/contract';
import i18n from '../../lib/i18n.ts';
import swahili from '../../lib/locales/sw.json';
import luganda from '../../lib/locales/lg.json';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeNetwork, json } from '../../test/fakeServer.ts';
import { analysisResult } from '../../test/analysis-result.ts';
import { ResultWithReview } from './components/ResultWithReview.tsx';
import { NotificationList } from '../../components/notifications/NotificationList.tsx';

const answer = (over: Partial<ExpertAnswer> = {}): ExpertAnswer => ({
  verdict: 'common_rust',
  note: 'Spray this week.',
  severity: 'moderate',
  answered_at: '2026-11-26T08:00:00.000Z',
  changed: false,
  feedback: {
    finding: { key: 'analysis.result.heading.rust_maize' },
    explanation: { key: 'analysis.result.explanation.rust_maize' },
    headline: 'Rust on maize: check how far it spread before you spend money.',
    advice: ['Rub a spot with your finger.'],
    more: [],
    advice_crop: 'maize',
    sources: [],
  },
  educational_resources: [],
  ...over,
});

const unsureRust = (expert: ExpertAnswer | null) =>
  analysisResult({
    unsure: true,
    confidence: 0.86,
    expert_verdict: expert?.verdict ?? null,
    expert_answer: expert,
    feedback: {
      finding: { key: 'analysis.result.heading.unsure', values: { guess: { key: 'analysis.rustName.maize' } } },
      explanation: {
        key: 'analysis.result.explanation.unsure',
        values: { guess: { key: 'analysis.rustName.maize' }, percent: '86%' },
      },
      headline: 'We are not sure. Take a clearer photo or ask an expert.',
      advice: ['Photograph one leaf in daylight.'],
      more: [],
      advice_crop: 'general',
      sources: [],
    },
  });

const review = (over: Partial<ExpertReview> = {}): ExpertReview => ({
  analysis_id: 7,
  question: null,
  asked_at: null,
  status: 'waiting',
  verdict: null,
  note: null,
  severity: null,
  reviewer: null,
  reviewed_at: null,
  revised_at: null,
  agrees: null,
  sample_id: null,
  community_post_id: null,
  ...over,
});

afterEach(() => vi.unstubAllGlobals());

describe("the expert's answer leads the result (decision 0049)", () => {
  beforeEach(() => {
    i18n.addResourceBundle('sw', 'translation', swahili, true, true);
    i18n.addResourceBundle('lg', 'translation', luganda, true, true);
  });
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  it("shows the expert's verdict, band, note and advice first, and the model's answer below as what it said", async () => {
    fakeNetwork(() => json(review({ status: 'reviewed', verdict: 'common_rust' })));
    renderWithProviders(<ResultWithReview result={unsureRust(answer())} />);
    const expert = await screen.findByTestId('expert-answer');
    expect(within(expert).getByTestId('expert-answer-heading').textContent).toBe('Common rust (Puccinia sorghi)');
    expect(within(expert).getByTestId('expert-answer-severity').textContent).toBe('Rust the expert saw: Moderate');
    expect(within(expert).getByTestId('expert-answer-note').textContent).toBe('“Spray this week.”');
    expect(within(expert).getByTestId('expert-answer-advice').textContent).toMatch(/^Rust on maize/);
    expect(within(expert).queryByTestId('expert-answer-changed')).toBeNull();
    // The expert's answer comes before what the model said, which stays visible.
    const modelSaid = screen.getByTestId('model-said');
    const model = screen.getByTestId('analysis-result');
    expect(expert.compareDocumentPosition(modelSaid) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(modelSaid.compareDocumentPosition(model) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(modelSaid.textContent).toBe('What the model said');
    expect(within(model).getByTestId('advice-headline').textContent).toMatch(/^We are not sure/);
  });

  it('says when the expert changed the answer, and shows no expert card before an answer', async () => {
    fakeNetwork(() => json(review()));
    const { unmount } = renderWithProviders(
      <ResultWithReview result={unsureRust(answer({ verdict: 'healthy', severity: null, changed: true }))} />,
    );
    expect((await screen.findByTestId('expert-answer-changed')).textContent).toBe('The expert changed this answer');
    expect(screen.getByTestId('expert-answer-heading').textContent).toBe('Healthy');
    unmount();
    renderWithProviders(<ResultWithReview result={unsureRust(null)} />);
    await screen.findByTestId('analysis-result');
    expect(screen.queryByTestId('expert-answer')).toBeNull();
    expect(screen.queryByTestId('model-said')).toBeNull();
  });

  it('speaks Kiswahili and Luganda', async () => {
    fakeNetwork(() => json(review({ status: 'reviewed', verdict: 'common_rust' })));
    for (const [language, texts] of [
      ['sw', swahili],
      ['lg', luganda],
    ] as const) {
      await act(() => i18n.changeLanguage(language));
      const { unmount } = renderWithProviders(<ResultWithReview result={unsureRust(answer({ changed: true }))} />);
      const expert = await screen.findByTestId('expert-answer');
      expect(within(expert).getByText(texts.analysis.expert.title)).toBeTruthy();
      expect(within(expert).getByTestId('expert-answer-changed').textContent).toBe(texts.analysis.expert.changed);
      expect(within(expert).getByTestId('expert-answer-severity').textContent).toBe(
        texts.analysis.expert.severity.replace('{{band}}', texts.analysis.result.severity.band.moderate),
      );
      expect(screen.getByTestId('model-said').textContent).toBe(texts.analysis.expert.modelSaid);
      expect(texts.analysis.expert.title).not.toBe('The expert’s answer');
      unmount();
    }
  });

  it('offers to send a "no leaf" photo to an expert, and says it went', async () => {
    const sent = fakeNetwork(({ url, method }) =>
      method === 'POST' && url.endsWith('/leaf-check/')
        ? json(review({ asked_at: '2026-11-26T08:00:00.000Z' }))
        : url.startsWith('/api/expert-reviews/7/')
          ? json(review())
          : json({}, 404),
    );
    const notLeaf = analysisResult({ outcome: 'not_leaf', rust_class: null, photos: [] });
    const user = userEvent.setup();
    renderWithProviders(<ResultWithReview result={notLeaf} />);
    const box = await screen.findByTestId('leaf-check');
    await user.click(within(box).getByRole('button', { name: 'Send to an expert' }));
    expect(await screen.findByTestId('leaf-check-sent')).toBeTruthy();
    expect(sent.some((s) => s.method === 'POST' && s.url === '/api/expert-reviews/7/leaf-check/')).toBe(true);
  });

  it("opens an expert's answer to a post from its notification, on the answer", async () => {
    fakeNetwork(({ url }) =>
      url.startsWith('/api/notifications/?')
        ? json({
            count: 1,
            next: null,
            previous: null,
            unread_count: 1,
            results: [
              {
                id: 9,
                type: 'community_answer',
                message: 'An expert answered your post “Brown spots”',
                date: '2026-11-26T08:00:00.000Z',
                read: false,
                data: { post_id: 3, response_id: 12 },
              },
            ],
          })
        : json({}, 404),
    );
    renderWithProviders(<NotificationList />);
    const link = await screen.findByRole('link', { name: 'An expert answered your post “Brown spots”' });
    expect(link.getAttribute('href')).toBe('/account/addresses/community-posts?post=3&answer=12');
  });
});
