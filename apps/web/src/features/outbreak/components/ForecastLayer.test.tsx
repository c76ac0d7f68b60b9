import type { DistrictForecastReply, ForecastWeekReply, RiskBasis, RiskLevel } from '@kutu/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';
import { topojsonResponse } from '../../../test/geo.ts';
import OutbreakMapPage from '../pages/OutbreakMapPage.tsx';

const days = ['2026-12-01', '2026-12-02'];
const week = (state: 'known' | 'unknown', levels: Record<string, RiskLevel[]>): ForecastWeekReply => ({
  crop: 'maize',
  run_at: '2026-12-01T03:00:00.000Z',
  rules_version: '2026-11-28',
  weather: {
    state,
    fetched_at: state === 'known' ? '2026-12-01T03:00:00.000Z' : null,
    age_hours: state === 'known' ? 2 : null,
  },
  districts: Object.entries(levels).map(([code, ls]) => ({
    code,
    name: code,
    worst: ls.includes('high') ? 'high' : ls[0],
    days: ls.map((level, i) => ({ day: days[i], level })),
  })),
});

const basis = (o: Partial<RiskBasis>): RiskBasis => ({
  wet_hours: 12,
  longest_run: 12,
  infection_hours: 6,
  band: [16, 25],
  confirmed_here: false,
  walked_rust_here: false,
  neighbours: [],
  upwind: [],
  unnamed_near: false,
  ...o,
});
const bukedea: DistrictForecastReply = {
  code: 'UG-219',
  name: 'Bukedea',
  crop: 'maize',
  run_at: '2026-12-01T03:00:00.000Z',
  rules_version: '2026-11-28.2',
  weather: { state: 'known', fetched_at: '2026-12-01T03:00:00.000Z', age_hours: 2 },
  worst: 'high',
  days: [
    { day: days[0], level: 'low', basis: basis({ wet_hours: 0, longest_run: 0, unnamed_near: true }) },
    {
      day: days[1],
      level: 'high',
      basis: basis({
        walked_rust_here: true,
        walked_median: 0.125,
        neighbours: ['Mbale'],
        upwind: ['Mbale'],
        point: { lat: 1.5, lng: 34.2, elevation: 2105, km: 18.9, direction: 'NE' },
        points: 4,
        points_unknown: 1,
      }),
    },
  ],
};

const network = (reply: ForecastWeekReply) =>
  fakeNetwork(({ url }) => {
    if (url.includes('uganda-districts')) return topojsonResponse('uganda-districts.topojson');
    if (url.includes('kenya-counties')) return topojsonResponse('kenya-counties.topojson');
    if (url.startsWith('/api/forecast/districts/UG-219/')) return json(bukedea);
    if (url.startsWith('/api/forecast/week/')) return json(reply);
    if (url.startsWith('/api/outbreak/map/')) return json({}, 404);
    return json({}, 404);
  });

afterEach(() => vi.unstubAllGlobals());

async function openNextWeek() {
  renderWithProviders(<OutbreakMapPage />);
  fireEvent.click(await screen.findByText('Next 7 days', {}, { timeout: 10_000 }));
  return screen.findByTestId('forecast-map', {}, { timeout: 10_000 });
}

describe('the map\'s "next 7 days" layer', () => {
  it("shades each district by the week's worst, or by a chosen day, and names the high ones", async () => {
    network(week('known', { 'UG-219': ['low', 'high'], 'UG-102': ['moderate', 'low'] }));
    const map = await openNextWeek();
    const risk = (code: string) => map.querySelector(`[data-code="${code}"]`)?.getAttribute('data-risk');
    expect(risk('UG-219')).toBe('high');
    expect(risk('UG-102')).toBe('moderate');
    expect(screen.getByTestId('forecast-high').textContent).toContain('Bukedea');
    expect(screen.getByTestId('forecast-age').textContent).toContain('2 hours ago');
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-12-01' } });
    await waitFor(() => expect(risk('UG-219')).toBe('low'));
  });

  // A forecast fetched this hour read "Weather forecast from 0 hours ago".
  it('says a forecast of this hour is from within the hour, not "0 hours ago"', async () => {
    const fresh = week('known', { 'UG-219': ['high'] });
    network({ ...fresh, weather: { ...fresh.weather, age_hours: 0.2 } });
    await openNextWeek();
    expect(screen.getByTestId('forecast-age').textContent).toContain('Weather forecast from within the hour');
    expect(screen.getByTestId('forecast-age').textContent).not.toContain('0 hours');
  });

  it('says "weather unknown" and shades no district low without weather', async () => {
    network(week('unknown', { 'UG-219': ['unknown', 'unknown'] }));
    const map = await openNextWeek();
    expect(screen.getByTestId('forecast-unknown').textContent).toMatch(/Weather unknown/);
    const levels = new Set([...map.querySelectorAll('path')].map((p) => p.getAttribute('data-risk')));
    expect(levels).toEqual(new Set(['unknown']));
  });

  it('says in plain words why a district tapped on the map reads as it does', async () => {
    network(week('known', { 'UG-219': ['low', 'high'], 'UG-102': ['moderate', 'low'] }));
    const map = await openNextWeek();
    fireEvent.click(map.querySelector('[data-code="UG-219"]') as Element);
    const reasons = await screen.findByTestId('forecast-reasons');
    expect(reasons.textContent).toContain('Bukedea this week: High');
    const [first, second] = screen.getAllByTestId('forecast-reason').map((li) => li.textContent);
    expect(first).toContain('no wet hours at 16–25 °C');
    expect(first).toContain('rust reported nearby');
    expect(second).toContain('12 wet hours at 16–25 °C, 12 in a row (6 needed to infect)');
    expect(second).toContain("rust found on farmers' walks here in the last 14 days");
    expect(second).toContain("farmers' walks here found rust on 13 % of plants (median)");
    expect(second).toContain('rust next door in Mbale; the wind blows from Mbale');
    expect(second).not.toContain('nearby');
    // The highland point whose weather drove the level, and the place without weather (docs/decisions/0134).
    expect(second).toContain('worst at 2,105 m, 19 km north-east of the centre');
    expect(second).toContain('no weather at 1 of 4 places in the district');
    expect(first).not.toContain('of the centre');
    // The same from the list, for those who cannot tap a shape.
    expect((screen.getByLabelText(/Choose a district or county/) as HTMLSelectElement).value).toBe('UG-219');
  });
});
