import type { ForecastWeekReply, RiskLevel } from '@kutu/contract';
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

const network = (reply: ForecastWeekReply) =>
  fakeNetwork(({ url }) => {
    if (url.includes('uganda-districts')) return topojsonResponse('uganda-districts.topojson');
    if (url.includes('kenya-counties')) return topojsonResponse('kenya-counties.topojson');
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

  it('says "weather unknown" and shades no district low without weather', async () => {
    network(week('unknown', { 'UG-219': ['unknown', 'unknown'] }));
    const map = await openNextWeek();
    expect(screen.getByTestId('forecast-unknown').textContent).toMatch(/Weather unknown/);
    const levels = new Set([...map.querySelectorAll('path')].map((p) => p.getAttribute('data-risk')));
    expect(levels).toEqual(new Set(['unknown']));
  });
});
