import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import i18n from '../../lib/i18n.ts';
import type { AnalysisResult } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { analysisResult } from '../../test/analysis-result.ts';
import { FollowUpNote } from './components/FollowUpNote.tsx';
import { followUpSummary } from './lib/follow-up.ts';
import { notificationTarget } from '../../components/notifications/NotificationList.tsx';

const base = analysisResult({ id: 77, confidence: 0.96 });
const worse: AnalysisResult = {
  ...base,
  remind_at: null,
  follow_up: {
    of: 12,
    of_rust_class: 'common_rust',
    of_confidence: 0.9,
    of_severity: null,
    outcome: 'worse',
    sent_to_expert: true,
  },
};
/** Both photos with a rust share of the leaf: 7 % on the first, 12 % now. */
const spreading: AnalysisResult = {
  ...worse,
  severity: { share: 0.12, band: 'moderate', estimate: true },
  follow_up: { ...worse.follow_up!, of_confidence: 0.97, of_severity: 0.07 },
};

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('follow-up after advice to treat (decision 0044)', () => {
  it('compares the rust share of the leaf where both photos have one, else the confidence in rust', () => {
    expect(followUpSummary(spreading)).toMatchObject({ measure: 'share', before: 0.07, now: 0.12 });
    expect(followUpSummary(worse)).toEqual({
      outcome: 'worse',
      color: 'red',
      measure: 'confidence',
      before: 0.9,
      now: 0.96,
      sentToExpert: true,
      firstId: 12,
    });
    const better = { ...base, rust_class: 'healthy' as const, probabilities: { common_rust: 0.03, healthy: 0.95 } };
    expect(
      followUpSummary({ ...better, follow_up: { ...worse.follow_up!, outcome: 'better', sent_to_expert: false } }),
    ).toMatchObject({ outcome: 'better', color: 'green', before: 0.9, now: 0.03, sentToExpert: false });
    expect(followUpSummary(base)).toBeNull();
  });

  it('tells the farmer in words what the comparison found, that an expert will look, and links the first', () => {
    renderWithProviders(<FollowUpNote result={worse} />);
    const note = screen.getByTestId('follow-up');
    expect(note.textContent).toContain('Not better: rust is as strong or stronger');
    expect(note.textContent).toContain('Kutu was 90% sure of rust on the first photo and is 96% sure now');
    expect(screen.getByTestId('follow-up-expert').textContent).toContain('Kutu has sent this photo to an expert');
    expect(screen.getByRole('link', { name: 'See the first diagnosis' }).getAttribute('href')).toBe(
      '/account/addresses/analysis-history?analysis=12',
    );
    expect(screen.queryByTestId('follow-up-reminder')).toBeNull();
  });

  it('says the rust share in words, not the confidence, where both photos have one (en, sw, lg)', async () => {
    const { unmount } = renderWithProviders(<FollowUpNote result={spreading} />);
    expect(screen.getByTestId('follow-up-body').textContent).toBe(
      'Rust covered about 7% of the leaf on the first photo, now about 12%: it is spreading.',
    );
    expect(screen.getByTestId('follow-up').textContent).not.toMatch(/97|96/);
    unmount();
    // Within the server's margin ("worse": as strong or stronger) but not up in the figures shown.
    const same = { ...spreading, severity: { share: 0.065, band: 'moderate' as const, estimate: true } };
    const second = renderWithProviders(<FollowUpNote result={same} />);
    expect(screen.getByTestId('follow-up-body').textContent).toBe(
      'Rust covered about 7% of the leaf on the first photo, now about 7%: it has not gone down after the time for treatment.',
    );
    second.unmount();
    await act(() => i18n.changeLanguage('sw'));
    const third = renderWithProviders(<FollowUpNote result={spreading} />);
    expect(screen.getByTestId('follow-up-body').textContent).toMatch(
      /^Kutu ilifunika karibu 7\s?% ya jani .* inaenea\.$/,
    );
    third.unmount();
    await act(() => i18n.changeLanguage('lg'));
    renderWithProviders(<FollowUpNote result={spreading} />);
    expect(screen.getByTestId('follow-up-body').textContent).toMatch(/7\s?%.*12\s?%: esaasaana\.$/);
  });

  it('says when Kutu will remind, and shows nothing for a result without a follow-up', () => {
    const { unmount } = renderWithProviders(
      <FollowUpNote result={{ ...base, remind_at: '2026-12-02T08:00:00.000Z' }} />,
    );
    expect(screen.getByTestId('follow-up-reminder').textContent).toMatch(/Kutu will remind you on .*2 Dec 2026/);
    unmount();
    renderWithProviders(<FollowUpNote result={base} />);
    expect(screen.queryByTestId('follow-up-reminder')).toBeNull();
    expect(screen.queryByTestId('follow-up')).toBeNull();
  });

  it('opens the photo screen marked as a follow-up from the reminder', () => {
    expect(notificationTarget({ type: 'follow_up_reminder', data: { analysis_id: 12, follow_up_of: 12 } })).toBe(
      '/account/addresses/image-analysis?follow_up=12',
    );
  });
});
