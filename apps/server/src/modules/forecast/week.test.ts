import type { WeatherHour } from '@kutu/contract';
import { describe, expect, it } from 'vitest';
import { forecastWeek, localDays, type RustPresent } from './week.ts';

// Mbale (UG-209) and its neighbour Bukedea (UG-219).
const MBALE = 'UG-209';
const BUKEDEA = 'UG-219';
const now = new Date('2026-11-30T06:00:00Z');

/** Every hour of the forecast's days wet at 18 °C: maize rust weather all week. */
const wetWeek = (): WeatherHour[] =>
  localDays(now).flatMap((day) =>
    Array.from({ length: 24 }, (_, h) => ({
      time: `${day}T${String(h).padStart(2, '0')}:00`,
      tempC: 18,
      humidity: 95,
      dewPointC: 17,
      rainMm: 0,
      windKmh: 5,
      windFromDeg: 90,
    })),
  );

function bukedeaMaize(present: RustPresent) {
  const rows = forecastWeek(new Map([[BUKEDEA, new Map([[0, { hours: wetWeek(), elevation: null }]])]]), present, now);
  return rows.filter((r) => r.district === BUKEDEA && r.crop === 'maize');
}

describe('the week of a district with rust next door', () => {
  it('counts one confirmed case next door in the level but names the place only once the map shows it', () => {
    const hidden = bukedeaMaize(new Map([[`${MBALE}|maize`, { confirmed: 1, walked: 0, shown: false }]]));
    expect(hidden.map((r) => r.level)).toEqual(Array(7).fill('high'));
    expect(hidden[0].basis).toMatchObject({ neighbours: [], upwind: [], unnamed_near: true });
    expect(JSON.stringify(hidden)).not.toContain('Mbale');

    const shown = bukedeaMaize(new Map([[`${MBALE}|maize`, { confirmed: 3, walked: 0, shown: true }]]));
    expect(shown.map((r) => r.level)).toEqual(Array(7).fill('high'));
    expect(shown[0].basis).toMatchObject({ neighbours: ['Mbale'], unnamed_near: false });
  });

  it('does not say "confirmed here" for a case the map hides in the district itself', () => {
    const rows = bukedeaMaize(new Map([[`${BUKEDEA}|maize`, { confirmed: 1, walked: 1, shown: false }]]));
    expect(rows[0].level).toBe('high');
    expect(rows[0].basis).toMatchObject({ confirmed_here: false, walked_rust_here: false, unnamed_near: true });
  });

  it('with no rust anywhere near, infecting weather is moderate and nothing is reported nearby', () => {
    const rows = bukedeaMaize(new Map());
    expect(rows[0].level).toBe('moderate');
    expect(rows[0].basis.unnamed_near).toBe(false);
  });
});
