import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { districtCentres } from './district-centres.ts';
import { districts } from './districts.ts';
import { SMALL_COUNT_MIN } from './outbreak-paths.ts';
import {
  infectingHour,
  leafWet,
  RUST_BANDS,
  RUST_WEATHER_VERSION,
  riskOf,
  rustDays,
  upwindOf,
  type WeatherHour,
  weatherCall,
  worstLevel,
} from './rust-weather.ts';

const hour = (time: string, o: Partial<WeatherHour> = {}): WeatherHour => ({
  time,
  tempC: 20,
  humidity: 60,
  dewPointC: 10,
  rainMm: 0,
  windKmh: 10,
  windFromDeg: 90,
  ...o,
});
/** A day of 24 hours, `wet` of them (from 20:00 the day before in `night`) humid at `temp`. */
function day(date: string, o: { wetFrom?: number; wet?: number; temp?: number; dryTemp?: number } = {}): WeatherHour[] {
  const { wetFrom = 0, wet = 0, temp = 18, dryTemp = 30 } = o;
  return Array.from({ length: 24 }, (_, h) => {
    const inRun = h >= wetFrom && h < wetFrom + wet;
    return hour(`${date}T${String(h).padStart(2, '0')}:00`, inRun ? { tempC: temp, humidity: 95 } : { tempC: dryTemp });
  });
}
const none = { confirmedHere: 0, walkedRustHere: 0, neighbours: [], upwind: [] };

describe('leaf wetness', () => {
  it('is wet at 90 % humidity, at dew within 2 °C, or in rain; dry otherwise', () => {
    expect(leafWet(hour('t', { humidity: 90 }))).toBe(true);
    expect(leafWet(hour('t', { humidity: 89 }))).toBe(false);
    expect(leafWet(hour('t', { tempC: 15, dewPointC: 13 }))).toBe(true);
    expect(leafWet(hour('t', { tempC: 15, dewPointC: 12.9 }))).toBe(false);
    expect(leafWet(hour('t', { rainMm: 0.4 }))).toBe(true);
    expect(leafWet(hour('t', { humidity: null, dewPointC: null, rainMm: null }))).toBe(false);
  });

  it('infects only inside the crop band', () => {
    const wet = (tempC: number) => hour('t', { tempC, humidity: 95 });
    expect(infectingHour(wet(16), 'maize')).toBe(true);
    expect(infectingHour(wet(25), 'maize')).toBe(true);
    expect(infectingHour(wet(26), 'maize')).toBe(false);
    expect(infectingHour(wet(15.9), 'maize')).toBe(false);
    expect(infectingHour(wet(16.5), 'beans')).toBe(false);
    expect(infectingHour(wet(27), 'beans')).toBe(true);
  });
});

describe('rust days', () => {
  it('counts a cool wet night as an infection run for maize (6 h) and not for beans (10 h)', () => {
    const hours = day('2026-12-01', { wetFrom: 0, wet: 8 });
    const [maize] = rustDays(hours, 'maize');
    expect(maize).toMatchObject({ day: '2026-12-01', wetHours: 8, longestRun: 8, infectionRuns: 1, hours: 24 });
    expect(weatherCall(maize, 'maize')).toBe('infects');
    const [beans] = rustDays(hours, 'beans');
    expect(beans.infectionRuns).toBe(0);
    expect(weatherCall(beans, 'beans')).toBe('nearly');
  });

  it('carries a night run across midnight into the day it completes', () => {
    const hours = [...day('2026-12-01', { wetFrom: 20, wet: 4 }), ...day('2026-12-02', { wetFrom: 0, wet: 3 })];
    const [first, second] = rustDays(hours, 'maize');
    expect(first.infectionRuns).toBe(0);
    expect(second).toMatchObject({ longestRun: 7, infectionRuns: 1, wetHours: 3 });
  });

  it('infects every day of a wet spell that lasts days, not only the day it began', () => {
    const spell = ['2026-12-01', '2026-12-02', '2026-12-03'].flatMap((d) => day(d, { wet: 24 }));
    for (const crop of ['maize', 'beans'] as const) {
      const days = rustDays(spell, crop);
      expect(days.map((d) => weatherCall(d, crop))).toEqual(['infects', 'infects', 'infects']);
    }
  });

  it('calls hot dry weather dry, and hot humid weather dry too (outside the band)', () => {
    expect(weatherCall(rustDays(day('2026-12-01'), 'maize')[0], 'maize')).toBe('dry');
    const hotWet = day('2026-12-01', { wet: 12, temp: 29 });
    expect(weatherCall(rustDays(hotWet, 'maize')[0], 'maize')).toBe('dry');
  });

  it('averages the wind direction over the day', () => {
    const hours = [hour('2026-12-01T00:00', { windFromDeg: 350 }), hour('2026-12-01T01:00', { windFromDeg: 10 })];
    expect(rustDays(hours, 'maize')[0].windFromDeg).toBe(0);
  });
});

describe('risk', () => {
  it('is high with infecting weather and rust here or next door, moderate with either, low with neither', () => {
    const next = { ...none, neighbours: ['UG-209'] };
    expect(riskOf('infects', next)).toBe('high');
    expect(riskOf('infects', { ...none, confirmedHere: 1 })).toBe('high');
    expect(riskOf('infects', { ...none, walkedRustHere: SMALL_COUNT_MIN })).toBe('high');
    expect(riskOf('infects', none)).toBe('moderate');
    expect(riskOf('nearly', next)).toBe('moderate');
    expect(riskOf('nearly', none)).toBe('low');
    expect(riskOf('dry', next)).toBe('low');
  });

  it("never rises on fewer than SMALL_COUNT_MIN farmers' walks alone: one farmer cannot steer it", () => {
    const one = { ...none, walkedRustHere: 1 };
    const fewer = { ...none, walkedRustHere: SMALL_COUNT_MIN - 1 };
    expect(riskOf('infects', one)).toBe('moderate');
    expect(riskOf('infects', fewer)).toBe('moderate');
    expect(riskOf('nearly', fewer)).toBe('low');
    // Confirmed by an expert, one case counts.
    expect(riskOf('infects', { ...fewer, confirmedHere: 1 })).toBe('high');
  });

  it('is unknown without weather, never low', () => {
    expect(riskOf(null, { ...none, confirmedHere: 5 })).toBe('unknown');
    expect(worstLevel(['unknown', 'unknown'])).toBe('unknown');
    expect(worstLevel(['unknown', 'low', 'high', 'moderate'])).toBe('high');
  });

  it('finds the neighbours the wind blows from', () => {
    // Wind from the east: a neighbour east of the centre is upwind, one west is not.
    const ns = [
      { code: 'E', centre: [0, 1] as const },
      { code: 'W', centre: [0, -1] as const },
      { code: 'N', centre: [1, 0] as const },
    ];
    expect(upwindOf([0, 0], 90, ns)).toEqual(['E']);
    expect(upwindOf([0, 0], 0, ns)).toEqual(['N']);
    expect(upwindOf([0, 0], null, ns)).toEqual([]);
  });

  it('has a source for every band, and a centre inside Uganda or Kenya for every district', () => {
    for (const b of Object.values(RUST_BANDS)) expect(b.sources.length).toBeGreaterThan(0);
    expect(districtCentres.size).toBe(districts.length);
    for (const d of districts) {
      const [lat, lng] = districtCentres.get(d.code) ?? [99, 99];
      expect(lat, d.code).toBeGreaterThan(-5);
      expect(lat, d.code).toBeLessThan(5.5);
      expect(lng, d.code).toBeGreaterThan(29);
      expect(lng, d.code).toBeLessThan(42);
    }
  });
});

/**
 * Every version of the rust-weather rules given out, with the hash of their answers over a grid of days
 * (wet hours and their start, temperature, both crops) and of rust near. A change to a band, the wetness
 * or a risk rule changes the hash: give it a new RUST_WEATHER_VERSION and add it here.
 */
const ISSUED: Record<string, string> = {
  '2026-11-28.2': '8278e99c88560f7a16e0df913fff4390ba6159beb0ec22c9208cd38ac090d73c',
  '2026-12-02.1': '6e306f0d4d2accd00e2e0b10a6fff050265345954e46a4876320937c9bfd3b47',
};

describe('the rules given out', () => {
  it('answer as the version they carry says', () => {
    const answers: string[] = [];
    const nears = [
      none,
      { ...none, neighbours: ['X'] },
      { ...none, confirmedHere: 1 },
      { ...none, walkedRustHere: SMALL_COUNT_MIN - 1 },
      { ...none, walkedRustHere: SMALL_COUNT_MIN },
    ];
    for (const crop of ['maize', 'beans'] as const)
      for (const temp of [14, 16, 17, 20, 25, 26, 27, 28])
        for (const wetFrom of [0, 18])
          for (const wet of [0, 2, 3, 5, 6, 9, 10, 12, 24]) {
            const hours = [
              ...day('2026-12-01', { wetFrom, wet, temp }),
              ...day('2026-12-02', { wet: wet > 12 ? 24 : 0, temp }),
            ];
            for (const d of rustDays(hours, crop))
              for (const near of nears)
                answers.push(
                  `${crop}|${temp}|${wetFrom}|${wet}|${JSON.stringify(d)}|${riskOf(weatherCall(d, crop), near)}`,
                );
          }
    const hash = createHash('sha256').update(answers.join('\n')).digest('hex');
    expect(ISSUED[RUST_WEATHER_VERSION], `RUST_WEATHER_VERSION ${RUST_WEATHER_VERSION} is not listed`).toBeDefined();
    expect(hash, 'the rules changed: bump RUST_WEATHER_VERSION and list it').toBe(ISSUED[RUST_WEATHER_VERSION]);
  });
});
