import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type FieldFiguresReply, type FieldSetReply, reviewApi, trainingApi, wilsonInterval } from '@kutu/contract';
import { formatDateTime } from '../../lib/format.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeNetwork, json } from '../../test/fakeServer.ts';
import { FieldFigures } from './FieldFigures.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const row = (crop: string, month: string | null, checked: number, right: number, wrong: number) => ({
  crop,
  month,
  checked,
  right: wilsonInterval(right, checked),
  confident_wrong: wilsonInterval(wrong, checked),
  unsure: wilsonInterval(checked - right - wrong, checked),
});
const figures: FieldFiguresReply = {
  months: 12,
  rows: [row('maize', '2026-11', 20, 12, 2), row('maize', '2026-10', 5, 5, 0), row('maize', null, 25, 17, 2)],
};
const measure = { candidate: 150, active: 160, worse: 14, better: 4, p: 0.015 };
const set: FieldSetReply = {
  min_photos: 30,
  hold_out_every: 5,
  alpha: 0.05,
  crops: [
    { crop: 'beans', photos: 190, by_class: { common_rust: 60, healthy: 65, other_disease: 65 }, enough: true },
    { crop: 'maize', photos: 12, by_class: { common_rust: 5, other_disease: 7 }, enough: false },
  ],
  cut: {
    max_wrong: 0.03,
    confidence: 0.95,
    model_version: 'v20261120-j3',
    crops: [
      {
        crop: 'beans',
        photos: 400,
        card_cut: 0.6,
        cut: 0.7,
        bound: 0.0291,
        applied: 'field',
        applied_since: '2026-11-20T08:00:00.000Z',
      },
      { crop: 'maize', photos: 12, card_cut: 0.6, cut: null, bound: null, applied: 'card', applied_since: null },
      {
        crop: 'unknown',
        photos: 150,
        card_cut: 0.6,
        cut: 0.5,
        bound: 0.028,
        applied: 'card',
        applied_since: null,
      },
    ],
  },
  last_check: {
    id: 7,
    version: 'v20261201-j4',
    is_active: false,
    accepted: false,
    created_at: '2026-12-01T10:00:00.000Z',
    field_check: {
      min_photos: 30,
      alpha: 0.05,
      hold_out_every: 5,
      eval_set_photos: { beans: 140 },
      crops: [
        {
          crop: 'beans',
          photos: 330,
          by_class: {},
          right: measure,
          confident_wrong: { ...measure, candidate: 9, active: 8, p: 0.5 },
          outcome: 'worse',
          fewer_right: true,
          more_confident_wrong: false,
          detectable_points: 5,
        },
      ],
    },
  },
};

describe('FieldFigures', () => {
  it('shows each month and all time with the 95% range of each share, and the held-back photos and last check', async () => {
    fakeNetwork(({ url }) =>
      json(url.includes(reviewApi.fieldFigures) ? figures : url.includes(trainingApi.fieldSet) ? set : {}),
    );
    renderWithProviders(<FieldFigures />);
    const table = await screen.findByRole('table', { name: "Kutu's answers on verified photos: Maize" });
    const rows = [...table.querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => c.textContent));
    // 12 of 20 right: 60 % (39–78 %) by Wilson's interval.
    expect(rows[0]).toEqual(['2026-11', '20', '60% (39%–78%)', '10% (3%–30%)', '30% (15%–52%)']);
    expect(rows[1][2]).toBe('100% (57%–100%)');
    expect(rows[2][0]).toBe('All time');
    const held = await screen.findByTestId('field-set');
    expect(within(held).getByText('Beans: 190 photos')).toBeTruthy();
    expect(within(held).getByText('Judged')).toBeTruthy();
    expect(within(held).getByText('Too few (at least 30)')).toBeTruthy();
    expect(within(held).getByText('Last retrained model, v20261201-j4: not activated')).toBeTruthy();
    const cuts = within(held).getByTestId('field-cuts');
    expect(
      within(cuts).getByText(
        `Beans: Kutu answers from 70.0% sure (the card says 60.0%): confidently wrong on at most 2.9% of 400 verified photos (95% sure); applied since ${formatDateTime('2026-11-20T08:00:00.000Z')}`,
      ),
    ).toBeTruthy();
    // A learnt cut looser than the card's is shown, not applied (0119).
    expect(
      within(cuts).getByText(
        "Crop not said: Kutu answers from 50.0% sure (the card says 60.0%): confidently wrong on at most 2.8% of 150 verified photos (95% sure); looser than the card's, so the card's applies",
      ),
    ).toBeTruthy();
    expect(
      within(cuts).getByText("Maize: 12 verified photos, too few to set its cut; the card's 60.0% stands"),
    ).toBeTruthy();
    expect(
      within(held).getByText('Beans: worse on 330 photos: right 150 vs 160, confidently wrong 9 vs 8'),
    ).toBeTruthy();
  });

  it('lets an administrator, and no one else, activate the refused version after confirming its figures', async () => {
    const unshown = structuredClone(set);
    unshown.last_check!.field_check.crops[0].outcome = 'not_shown';
    const sent = fakeNetwork(({ url }) =>
      json(url.includes(reviewApi.fieldFigures) ? figures : url.includes(trainingApi.fieldSet) ? unshown : {}),
    );
    localStorage.setItem('user', JSON.stringify({ username: 'lead', role: 'expert' }));
    const { unmount } = renderWithProviders(<FieldFigures />);
    await screen.findByTestId('field-last-check');
    expect(screen.queryByTestId('override-open')).toBeNull();
    unmount();

    localStorage.setItem('user', JSON.stringify({ username: 'admin', role: 'admin' }));
    renderWithProviders(<FieldFigures />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Activate v20261201-j4 with these figures' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activate v20261201-j4?' });
    expect(
      within(dialog).getByText(
        'Beans: not shown within 1 point on 330 photos: right 150 vs 160, confidently wrong 9 vs 8 (an administrator decides)',
      ),
    ).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Activate' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.click(within(dialog).getByLabelText('I have read these field figures'));
    await user.click(confirm);
    await vi.waitFor(() =>
      expect(sent.find((r) => r.method === 'POST')).toMatchObject({
        url: expect.stringContaining('/api/model-versions/7/activate/'),
        body: { confirm_field_figures: true },
      }),
    );
  });

  it('says when no photo has a verdict yet', async () => {
    fakeNetwork(({ url }) =>
      json(url.includes(reviewApi.fieldFigures) ? { months: 12, rows: [] } : { ...set, crops: [], last_check: null }),
    );
    renderWithProviders(<FieldFigures />);
    expect(await screen.findByText("No photo has an expert's verdict yet.")).toBeTruthy();
    expect(await screen.findByText('No photo is held back yet.')).toBeTruthy();
  });
});
