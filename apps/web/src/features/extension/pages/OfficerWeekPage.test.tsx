import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SMALL_COUNT_WORDS } from '@kutu/contract/outbreak-paths';
import { renderWithProviders } from '../../../test/render.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';
import type { OfficerWeek } from '@kutu/contract';
import { me, week } from '../../../test/officer-week.fixture.ts';
import { serveWeek } from '../../../test/officer-week.ts';
import OfficerWeekPage from './OfficerWeekPage.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('OfficerWeekPage', () => {
  it("shows the district's week and records a call to a farmer who said worse", async () => {
    const calls = fakeNetwork(({ url, method }) => {
      if (url.startsWith('/api/extension/me/')) return json(me);
      if (method === 'POST' && url.startsWith('/api/extension/districts/UG-208/actions/')) {
        return json(
          {
            id: 1,
            kind: 'called',
            note: 'Sprayed twice',
            at: '2026-11-25T10:00:00.000Z',
            officer: 'dao',
            district: 'UG-208',
          },
          201,
        );
      }
      if (url.startsWith('/api/extension/districts/UG-208/week/')) return json(week);
      return json({}, 404);
    });
    renderWithProviders(<OfficerWeekPage />);
    expect(await screen.findByRole('heading', { name: 'Kumi, week 2026-W48' }, { timeout: 10_000 })).toBeTruthy();
    const alerts = screen.getByRole('region', { name: 'Alerts and messages' });
    expect(alerts.textContent).toContain('120');
    expect(alerts.textContent).toContain('Farmers told');
    expect(screen.getByRole('region', { name: 'Neighbouring districts' }).textContent).toContain(
      `0 to ${SMALL_COUNT_WORDS.max}`,
    );
    // The fields walked: 12 shown with their median; under three the count, the median and the spray
    // count are hidden alike.
    const cases = screen.getByRole('region', { name: 'Confirmed rust cases' }).textContent;
    expect(cases).toContain(
      `Fields walked by farmers this week: 12. Rust on 18 % of plants (median); on 0 to ${SMALL_COUNT_WORDS.max} of these fields the latest walk's advice is to spray now.`,
    );
    expect(cases).toContain(
      `Farmers who walked fields this week: 0 to ${SMALL_COUNT_WORDS.max} (too few to show their rust`,
    );
    expect(within(screen.getByRole('article', { name: 'akello' })).getByText('Walked a field: more rust')).toBeTruthy();
    // Said worse and asked for a call: one farmer, one card, both reasons (one call to record, not two).
    const farmer = screen.getByRole('article', { name: 'okello' });
    expect(screen.getAllByRole('article', { name: 'okello' })).toHaveLength(1);
    expect(within(farmer).getByText('Said worse')).toBeTruthy();
    expect(within(farmer).getByText('Asked for a call')).toBeTruthy();
    expect(within(farmer).getByRole('link', { name: '+256772000111' }).getAttribute('href')).toBe('tel:+256772000111');
    await userEvent.click(within(farmer).getByRole('button', { name: 'Record a call or visit' }));
    // The form and its schema load on the first tap: seconds on a loaded machine.
    const note = await within(farmer).findByRole('textbox', { name: /Note/ }, { timeout: 10_000 });
    await userEvent.type(note, 'Sprayed twice');
    await userEvent.click(within(farmer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ kind: 'called', note: 'Sprayed twice', farmer_id: 77, analysis_id: 901 });
  });

  it('lists the walks that wait for the officer and confirms one (decision 0105)', async () => {
    const held = {
      results: [
        {
          id: 41,
          field_name: 'Beans by the road',
          crop: 'beans',
          walked_at: '2026-11-24T08:00:00.000Z',
          plants_looked: 50,
          plants_rust: 50,
          held_for: 'far_walk',
        },
      ],
    };
    let confirmed = false;
    const calls = fakeNetwork(({ url, method }) => {
      if (url.startsWith('/api/extension/me/')) return json(me);
      if (method === 'POST' && url.startsWith('/api/extension/walks/41/confirm/')) {
        confirmed = true;
        return new Response(null, { status: 204 });
      }
      if (url.startsWith('/api/extension/districts/UG-208/held-walks/'))
        return json(confirmed ? { results: [] } : held);
      if (url.startsWith('/api/extension/districts/UG-208/week/')) return json(week);
      return json({}, 404);
    });
    renderWithProviders(<OfficerWeekPage />);
    const region = await screen.findByRole('region', { name: 'Walks waiting for you' }, { timeout: 10_000 });
    expect(region.textContent).toContain('Beans by the road (Beans)');
    expect(region.textContent).toContain('rust on 50 of 50 plants · far from what other farmers here counted');
    await userEvent.click(within(region).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Walks waiting for you' })).toBeNull());
    expect(calls.some((c) => c.method === 'POST' && c.url.startsWith('/api/extension/walks/41/confirm/'))).toBe(true);
  });

  it('tells a waiting officer what they wait for, and asks for no week', async () => {
    const calls = fakeNetwork(({ url }) =>
      url.startsWith('/api/extension/me/') ? json({ ...me, status: 'pending', districts: [] }) : json({}, 404),
    );
    renderWithProviders(<OfficerWeekPage />);
    expect(await screen.findByText('Your extension officer account is waiting for approval')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/week/'))).toBe(false);
  });

  it("shows the coming week's rust risk per crop, with the high days", async () => {
    const next: OfficerWeek = {
      ...week,
      next_risk: [
        { crop: 'maize', worst: 'high', high_days: ['2026-12-01'] },
        { crop: 'beans', worst: 'unknown', high_days: [] },
      ],
    };
    serveWeek(next);
    renderWithProviders(<OfficerWeekPage />);
    const risk = await screen.findByRole('region', { name: 'Rust risk in the next 7 days' }, { timeout: 10_000 });
    expect(risk.textContent).toContain('High · high on 1 Dec 2026');
    expect(risk.textContent).toContain('Weather unknown');
  });

  // After an advisory run the week read "No alert in this district this week", and re-walks with too few
  // plants were counted as "same".
  it('lists the week’s advisory under alerts and messages, and re-walks with too few plants apart', async () => {
    const advised: OfficerWeek = {
      ...week,
      alerts: [],
      advisories: [
        {
          crop: 'maize',
          high_day: '2026-12-01',
          told_at: '2026-11-30T03:10:00.000Z',
          told: 7,
          delivered: 6,
          failed: 1,
          waiting: 0,
        },
      ],
      follow_ups: { better: 0, same: 1, worse: 0, too_few: 3 },
    };
    serveWeek(advised);
    renderWithProviders(<OfficerWeekPage />);
    const alerts = await screen.findByRole('region', { name: 'Alerts and messages' }, { timeout: 10_000 });
    expect(alerts.textContent).not.toContain('No alert in this district this week.');
    expect(alerts.textContent).toContain('Maize rust risk high from 1 Dec 2026: farmers told to walk their fields');
    expect(within(alerts).getByTestId('advisory').textContent).toContain('7Farmers told');
    const followUps = screen.getByRole('region', { name: 'Follow-ups' });
    expect(followUps.textContent).toContain('3Too few plants to tell');
    expect(followUps.textContent).toContain('1Same');
  });

  it('gives a national officer the national bulletin as PDF and CSV (decision 0122)', async () => {
    const calls = fakeNetwork(({ url }) => {
      if (url.startsWith('/api/extension/me/')) return json({ ...me, national: true });
      if (url.startsWith('/api/extension/districts/UG-208/week/')) return json(week);
      if (url.startsWith('/api/forecast/bulletin.pdf')) return new Response('%PDF-1.3', { status: 200 });
      return json({}, 404);
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:bulletin', revokeObjectURL: () => {} }));
    renderWithProviders(<OfficerWeekPage />);
    const bulletin = await screen.findByRole('region', { name: 'National rust bulletin' }, { timeout: 10_000 });
    expect(within(bulletin).getByRole('button', { name: 'Bulletin (CSV)' })).toBeTruthy();
    await userEvent.click(within(bulletin).getByRole('button', { name: 'Bulletin (PDF)' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/forecast/bulletin.pdf')).toBe(true));
  });

  it('shows no bulletin to an officer who is not national', async () => {
    serveWeek();
    renderWithProviders(<OfficerWeekPage />);
    expect(await screen.findByRole('heading', { name: 'Kumi, week 2026-W48' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'National rust bulletin' })).toBeNull();
  });
});
