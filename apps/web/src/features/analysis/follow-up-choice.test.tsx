import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnalysisResult, ExpertAnswer, ExpertReview } from '@kutu/contract';
import i18n from '../../lib/i18n.ts';
import swahili from '../../lib/locales/sw.json';
import luganda from '../../lib/locales/lg.json';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeNetwork, json } from '../../test/fakeServer.ts';
import { analysisResult } from '../../test/analysis-result.ts';
import { FollowUpChoice } from './components/FollowUpChoice.tsx';
import { ResultWithReview } from './components/ResultWithReview.tsx';

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

const expertAnswer: ExpertAnswer = {
  verdict: 'common_rust',
  note: null,
  severity: null,
  answered_at: '2026-11-26T08:00:00.000Z',
  changed: false,
  feedback: {
    finding: { key: 'analysis.result.heading.rust_maize' },
    explanation: { key: 'analysis.result.explanation.rust_maize' },
    headline: 'Rust on maize.',
    advice: [],
    more: [],
    advice_crop: 'maize',
    sources: [],
  },
  educational_resources: [],
};

/** A follow-up photo Kutu could not compare, which it sent to an expert. */
const followUp: AnalysisResult = analysisResult({
  unsure: true,
  confidence: 0.7,
  follow_up: {
    of: 3,
    of_rust_class: 'common_rust',
    of_confidence: 0.95,
    of_severity: null,
    outcome: 'unclear',
    sent_to_expert: true,
  },
});

afterEach(() => vi.unstubAllGlobals());

describe('a follow-up only when the farmer says so', () => {
  beforeEach(() => {
    i18n.addResourceBundle('sw', 'translation', swahili, true, true);
    i18n.addResourceBundle('lg', 'translation', luganda, true, true);
  });
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  it('offers the diagnoses with an open reminder, and a choice makes the photo their follow-up (en, sw, lg)', async () => {
    const sent = fakeNetwork(({ url }) =>
      url === '/api/follow-ups/open/'
        ? json({
            results: [
              { analysis_id: 12, crop: 'maize', analysed_at: '2026-11-20T08:00:00.000Z', remind_at: null },
              {
                analysis_id: 9,
                crop: 'beans',
                field_name: 'Hill beans',
                analysed_at: '2026-11-18T08:00:00.000Z',
                remind_at: null,
              },
            ],
          })
        : json({}, 404),
    );
    const chosen: (number | null)[] = [];
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(
      <FollowUpChoice
        followUpOf={null}
        first={undefined}
        firstFailed={false}
        onChoose={(id) => chosen.push(id)}
        disabled={false}
      />,
    );
    const choice = await screen.findByTestId('follow-up-choice');
    expect(choice.textContent).toContain('Is this photo a check of a field Kutu advised you to treat?');
    expect(screen.getByTestId('follow-up-choose-12').textContent).toMatch(
      /^The same field as on .*20 Nov 2026 \(Maize\)$/,
    );
    // A diagnosis in a field is offered by the field's name; one from before fields by its crop.
    expect(screen.getByTestId('follow-up-choose-9').textContent).toMatch(
      /^The same field as on .*18 Nov 2026 \(Hill beans\)$/,
    );
    await user.click(screen.getByTestId('follow-up-choose-9'));
    expect(chosen).toEqual([9]);
    expect(sent.map((s) => s.url)).toEqual(['/api/follow-ups/open/']);
    unmount();

    for (const [language, texts] of [
      ['sw', swahili],
      ['lg', luganda],
    ] as const) {
      await act(() => i18n.changeLanguage(language));
      const { unmount: done } = renderWithProviders(
        <FollowUpChoice followUpOf={null} first={undefined} firstFailed={false} onChoose={() => {}} disabled={false} />,
      );
      const box = await screen.findByTestId('follow-up-choice');
      expect(box.textContent).toContain(texts.analysis.followUp.chooseIntro);
      expect(box.textContent).toContain(texts.analysis.followUp.chooseNone);
      expect(texts.analysis.followUp.chooseIntro).not.toBe(i18n.getFixedT('en')('analysis.followUp.chooseIntro'));
      done();
    }
  });

  it('offers nothing when no diagnosis waits for a follow-up, and says which one a linked photo checks', async () => {
    fakeNetwork(({ url }) => (url === '/api/follow-ups/open/' ? json({ results: [] }) : json({}, 404)));
    const { unmount } = renderWithProviders(
      <FollowUpChoice followUpOf={null} first={undefined} firstFailed={false} onChoose={() => {}} disabled={false} />,
    );
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(screen.queryByTestId('follow-up-choice')).toBeNull();
    unmount();
    const chosen: (number | null)[] = [];
    renderWithProviders(
      <FollowUpChoice
        followUpOf={3}
        first={analysisResult({ id: 3, created_at: '2026-11-20T08:00:00.000Z' })}
        firstFailed={false}
        onChoose={(id) => chosen.push(id)}
        disabled={false}
      />,
    );
    const banner = screen.getByTestId('follow-up-banner');
    expect(banner.textContent).toMatch(/This photo checks your field again after the diagnosis of .*20 Nov 2026/);
    await userEvent.setup().click(within(banner).getByRole('button', { name: 'This is another field' }));
    expect(chosen).toEqual([null]);
  });

  it("puts the expert's answer above Kutu's comparison, and offers no question once the photos went to an expert", async () => {
    fakeNetwork(({ url }) =>
      url.startsWith('/api/expert-reviews/7/')
        ? json(review({ status: 'reviewed', verdict: 'common_rust', asked_at: '2026-11-25T08:00:00.000Z' }))
        : json({}, 404),
    );
    const { unmount } = renderWithProviders(
      <ResultWithReview result={{ ...followUp, expert_verdict: 'common_rust', expert_answer: expertAnswer }} />,
    );
    const expert = await screen.findByTestId('expert-answer');
    const comparison = screen.getByTestId('follow-up');
    expect(comparison.textContent).toContain('Kutu cannot compare clearly');
    expect(expert.compareDocumentPosition(comparison) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    unmount();

    // Sent to an expert by Kutu, not answered yet: said, and no "Ask an expert" beside it.
    fakeNetwork(({ url }) =>
      url.startsWith('/api/expert-reviews/7/') ? json(review({ asked_at: '2026-11-25T08:00:00.000Z' })) : json({}, 404),
    );
    const second = renderWithProviders(<ResultWithReview result={followUp} />);
    expect((await screen.findByTestId('sent-to-expert')).textContent).toBe(
      'Kutu has sent your photos to its plant experts. You will see the answer here and get a notification.',
    );
    expect(screen.queryByRole('button', { name: 'Ask an expert' })).toBeNull();
    second.unmount();

    // Unsure with no leaf left to add: the photos wait for an expert too.
    fakeNetwork(({ url }) => (url.startsWith('/api/expert-reviews/7/') ? json(review()) : json({}, 404)));
    const waits = analysisResult({ unsure: true, confidence: 0.7 });
    const third = renderWithProviders(<ResultWithReview result={waits} />);
    expect(await screen.findByTestId('sent-to-expert')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ask an expert' })).toBeNull();
    third.unmount();

    // Nobody sent it: the farmer may ask.
    renderWithProviders(<ResultWithReview result={analysisResult()} />);
    // After the result's field (its code and the fields' strings) loads: more than a second on a busy machine.
    expect(await screen.findByRole('button', { name: 'Ask an expert' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByTestId('sent-to-expert')).toBeNull();
  });
});
