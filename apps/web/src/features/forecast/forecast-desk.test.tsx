import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ForecastScoreReply, ForecastWeekReply, PendingAdvisoriesReply } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { apiError, fakeNetwork, json } from '../../test/fakeServer.ts';
import ForecastDeskPage, { screenStringsReady } from './pages/ForecastDeskPage.tsx';

const basis = {
  wet_hours: 12,
  longest_run: 12,
  infection_hours: 6,
  band: [16, 25] as [number, number],
  confirmed_here: false,
  walked_rust_here: false,
  neighbours: ['Mbale'],
  upwind: [],
};
const pending: PendingAdvisoriesReply = {
  week_start: '2026-11-30',
  run_at: '2026-12-01T03:00:00.000Z',
  send_hour_eat: 10,
  next_send_at: '2026-12-01T07:00:00.000Z',
  advisories: [
    {
      district: 'UG-219',
      name: 'Bukedea',
      crop: 'maize',
      high_day: '2026-12-01',
      basis,
      state: 'due',
      due_at: '2026-12-01T07:00:00.000Z',
      told_at: null,
    },
  ],
  holds: [],
};
const week: ForecastWeekReply = {
  crop: 'maize',
  run_at: '2026-12-01T03:00:00.000Z',
  rules_version: 'test',
  weather: { state: 'known', fetched_at: '2026-12-01T03:00:00.000Z', age_hours: 0 },
  districts: [{ code: 'UG-219', name: 'Bukedea', worst: 'high', days: [{ day: '2026-12-01', level: 'high' }] }],
};

const score: ForecastScoreReply = {
  score: {
    week_start: '2026-11-30',
    scored_at: '2026-11-30T00:00:00.000Z',
    rules_version: 'test',
    from: '2024-11-25',
    to: '2026-11-16',
    weeks: 2,
    cases: 3,
    table: { a: 1, b: 0, c: 2, d: 0 },
    hit_rate: 1 / 3,
    false_alarm_ratio: 0,
    peirce: null,
    brier: 0.2,
    brier_baseline: 0.2,
    brier_skill: 0,
    reliability: [
      { level: 'low', cases: 2, observed: 2, rate: 1 },
      { level: 'moderate', cases: 0, observed: 0, rate: null },
      { level: 'high', cases: 1, observed: 1, rate: 1 },
    ],
  },
};

describe('the forecast desk (decision 0128)', () => {
  it('shows the advisories by district with their reasons and holds one with a reason the schema checks', async () => {
    await screenStringsReady;
    const calls = fakeNetwork(({ method, url, body }) => {
      if (method === 'POST' && url.startsWith('/api/forecast/holds/'))
        return (body as { reason: string }).reason.length >= 5 ? json({ id: 4 }, 201) : json({}, 400);
      if (url.startsWith('/api/forecast/advisories/')) return json(pending);
      if (url.startsWith('/api/forecast/week/')) return json(week);
      if (url.startsWith('/api/forecast/score/')) return json(score);
      return json({}, 404);
    });
    renderWithProviders(<ForecastDeskPage />);
    const card = await screen.findByTestId('desk-advisory');
    expect(within(card).getByText('Bukedea · Maize')).toBeTruthy();
    expect(within(card).getByText(/Mbale/)).toBeTruthy();
    expect(await screen.findByText('Bukedea: High')).toBeTruthy();
    // The score with the weeks behind it (decision 0129).
    const scored = await screen.findByTestId('desk-score');
    expect(scored.textContent).toContain('Over 2 weeks: 3 district-weeks');
    expect(scored.textContent).toContain('Hit rate 0.33, false-alarm ratio 0.00, Peirce skill –');
    // As the weekly sweep stored it, and when (decision 0137).
    expect(scored.textContent).toContain('Scored by the weekly sweep in the week of 2026-11-30.');
    await userEvent.click(within(card).getByRole('button', { name: 'Hold this district' }));
    // No reason: the contract's message, and nothing sent.
    await userEvent.click(await screen.findByRole('button', { name: 'Hold Bukedea' }));
    expect(await screen.findByText(/Say why the advisories are held/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.type(screen.getByLabelText(/Why hold it/), 'Storm in the forecast is wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Hold Bukedea' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      district: 'UG-219',
      reason: 'Storm in the forecast is wrong',
    });
  });

  it('says the forecast is not scored yet before the weekly sweep stored a score', async () => {
    await screenStringsReady;
    fakeNetwork(({ url }) =>
      url.startsWith('/api/forecast/score/')
        ? json({ score: null })
        : url.startsWith('/api/forecast/advisories/')
          ? json(pending)
          : url.startsWith('/api/forecast/week/')
            ? json(week)
            : json({}, 404),
    );
    renderWithProviders(<ForecastDeskPage />);
    expect((await screen.findByTestId('desk-score')).textContent).toContain('Not scored yet');
  });

  it('tells an officer who is not national that only national officers hold', async () => {
    await screenStringsReady;
    fakeNetwork(({ url }) =>
      url.startsWith('/api/forecast/advisories/')
        ? json(apiError(403, 'FORBIDDEN', 'No').body, 403)
        : url.startsWith('/api/forecast/week/')
          ? json(week)
          : json({}, 404),
    );
    renderWithProviders(<ForecastDeskPage />);
    expect((await screen.findByTestId('desk-refused')).textContent).toContain('Only national officers');
  });
});
