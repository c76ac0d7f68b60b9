import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { districtCentres } from './district-centres.ts';
import { districts } from './districts.ts';
import { SMALL_COUNT_MIN } from './outbreak-paths.ts';
import {
  leafWet,
  MIN_KNOWN_HOURS,
  RUST_BANDS,
  RUST_WEATHER_VERSION,
  riskOf,
  rustDays,
  upwindOf,
  type WeatherHour,
  weatherCall,
  wetnessNeeded,
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
  it('is wet at 90 % humidity, at dew within 1.5 °C, or in rain; dry otherwise', () => {
    expect(leafWet(hour('t', { humidity: 90 }))).toBe(true);
    expect(leafWet(hour('t', { humidity: 89 }))).toBe(false);
    expect(leafWet(hour('t', { tempC: 15, dewPointC: 13.5 }))).toBe(true);
    // A 2 °C gap is about 88 % humidity: drier than the sources' 90-95 %.
    expect(leafWet(hour('t', { tempC: 15, dewPointC: 13 }))).toBe(false);
    expect(leafWet(hour('t', { rainMm: 0.4 }))).toBe(true);
    expect(leafWet(hour('t', { humidity: null, dewPointC: null, rainMm: null }))).toBe(false);
  });

  it('asks the least wetness at the optimum, more toward the edges, and none outside Tmin..Tmax', () => {
    expect(wetnessNeeded(20, 'maize')).toBe(6);
    expect(wetnessNeeded(15, 'maize')).toBeCloseTo(9.85, 2);
    expect(wetnessNeeded(12.5, 'maize')).toBe(16); // capped at Wmax
    expect(wetnessNeeded(12, 'maize')).toBe(Number.POSITIVE_INFINITY);
    expect(wetnessNeeded(28, 'maize')).toBe(Number.POSITIVE_INFINITY);
    expect(wetnessNeeded(21, 'beans')).toBe(10);
    expect(wetnessNeeded(20, 'beans')).toBeCloseTo(10.38, 2);
    expect(wetnessNeeded(16.5, 'beans')).toBe(Number.POSITIVE_INFINITY);
    for (const crop of ['maize', 'beans'] as const)
      for (let t = RUST_BANDS[crop].minC + 0.5; t < RUST_BANDS[crop].maxC; t += 0.5)
        expect(wetnessNeeded(t, crop)).toBeGreaterThanOrEqual(RUST_BANDS[crop].infectionHours);
  });
});

describe('rust days', () => {
  it('counts a cool wet night as an infection for maize (about 6 h) and not for beans (10 h)', () => {
    const hours = day('2026-12-01', { wetFrom: 0, wet: 8, temp: 20 });
    const [maize] = rustDays(hours, 'maize');
    expect(maize).toMatchObject({ day: '2026-12-01', wetHours: 8, infectionRuns: 1, neededHours: 6, hours: 24 });
    expect(weatherCall(maize, 'maize')).toBe('infects');
    const [beans] = rustDays(hours, 'beans');
    expect(beans.infectionRuns).toBe(0);
    expect(weatherCall(beans, 'beans')).toBe('nearly');
  });

  it('infects maize on a cool highland night: 12 h of dew cooling from 17 to 13 °C (the old 16-25 °C band read it dry)', () => {
    const hours = Array.from({ length: 24 }, (_, h) => {
      const night = h >= 19 || h < 7;
      const step = (h + 5) % 24; // 19:00 → 0 … 06:00 → 11
      const tempC = night ? 17 - (4 * step) / 11 : 24;
      return hour(`2026-12-01T${String(h).padStart(2, '0')}:00`, {
        tempC,
        humidity: night ? 97 : 65,
        dewPointC: night ? tempC - 0.4 : 17,
      });
    });
    // The night in time order: the evening hours first (the day before), then the morning.
    const ordered = [...hours.slice(19), ...hours.slice(0, 19)].map((h, i) => ({
      ...h,
      time: i < 5 ? `2026-11-30T${h.time.slice(11)}` : h.time,
    }));
    const maize = rustDays(ordered, 'maize').find((d) => d.day === '2026-12-01')!;
    expect(maize.infectionRuns).toBe(1);
    expect(riskOf(weatherCall(maize, 'maize'), { ...none, confirmedHere: 1 })).toBe('high');
    // Beans: 13-17 °C is below their rust's Tmin (17 °C): dry.
    const beans = rustDays(ordered, 'beans').find((d) => d.day === '2026-12-01')!;
    expect(weatherCall(beans, 'beans')).toBe('dry');
  });

  it('counts a wet night from 20:00 to 07:00 whole across midnight: 11 h infect beans at 20 °C', () => {
    const hours = [
      ...day('2026-12-01', { wetFrom: 20, wet: 4, temp: 20 }),
      ...day('2026-12-02', { wetFrom: 0, wet: 7, temp: 20 }),
    ];
    const [first, second] = rustDays(hours, 'beans');
    expect(first.infectionRuns).toBe(0);
    expect(second).toMatchObject({ longestRun: 11, infectionRuns: 1, wetHours: 7, neededHours: 11 });
    expect(riskOf(weatherCall(second, 'beans'), none)).toBe('moderate');
    // The morning alone (7 h, what a forecast starting at midnight saw) is not enough.
    expect(rustDays(day('2026-12-02', { wetFrom: 0, wet: 7, temp: 20 }), 'beans')[0].infectionRuns).toBe(0);
  });

  it('keeps a wet night whole through one dry hour (shorter than D50), but not through two', () => {
    // 6 wet hours, one dry, 6 wet at 20 °C: 12 wet hours, enough for beans (10.4 h).
    const oneDry = day('2026-12-01', { wetFrom: 0, wet: 13, temp: 20 }).map((h, i) =>
      i === 6 ? { ...h, humidity: 70, dewPointC: 10 } : h,
    );
    const [beans] = rustDays(oneDry, 'beans');
    expect(beans).toMatchObject({ wetHours: 12, longestRun: 11, infectionRuns: 1 });
    expect(riskOf(weatherCall(beans, 'beans'), { ...none, neighbours: ['X'] })).toBe('high');
    const twoDry = oneDry.map((h, i) => (i === 7 ? { ...h, humidity: 70, dewPointC: 10 } : h));
    const [broken] = rustDays(twoDry, 'beans');
    expect(broken).toMatchObject({ wetHours: 11, longestRun: 6, infectionRuns: 0 });
    expect(weatherCall(broken, 'beans')).toBe('nearly');
  });

  it('infects every day of a wet spell that lasts days, not only the day it began', () => {
    const spell = ['2026-12-01', '2026-12-02', '2026-12-03'].flatMap((d) => day(d, { wet: 24, temp: 20 }));
    for (const crop of ['maize', 'beans'] as const) {
      const days = rustDays(spell, crop);
      expect(days.map((d) => weatherCall(d, crop))).toEqual(['infects', 'infects', 'infects']);
    }
  });

  it('calls hot dry weather dry, and hot humid weather dry too (above Tmax)', () => {
    expect(weatherCall(rustDays(day('2026-12-01'), 'maize')[0], 'maize')).toBe('dry');
    const hotWet = day('2026-12-01', { wet: 12, temp: 29 });
    expect(weatherCall(rustDays(hotWet, 'maize')[0], 'maize')).toBe('dry');
  });

  it('calls a day with too few usable hours unknown, never low or high', () => {
    const hours = day('2026-12-01', { wet: 24, temp: 20 }).map((h, i) =>
      i < 24 - MIN_KNOWN_HOURS + 1 ? { ...h, tempC: null } : h,
    );
    const [d] = rustDays(hours, 'maize');
    expect(d.knownHours).toBe(MIN_KNOWN_HOURS - 1);
    expect(weatherCall(d, 'maize')).toBeNull();
    expect(riskOf(weatherCall(d, 'maize'), { ...none, confirmedHere: 3 })).toBe('unknown');
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
 * (wet hours and their start, temperature, both crops) and of rust near. A change to a model's parameters, the wetness
 * or a risk rule changes the hash: give it a new RUST_WEATHER_VERSION and add it here.
 */
const ISSUED: Record<string, string> = {
  '2026-11-28.2': '8278e99c88560f7a16e0df913fff4390ba6159beb0ec22c9208cd38ac090d73c',
  '2026-11-29.1': 'ea477eeab31649b1108fb320236e487c14e5ea7cac8827690691a22fa1d4e578',
  '2026-11-29.2': 'ff68ae2933099ad32616f2d3ffa1fc7c22f28ecfd389eab3c57629068f81dff1',
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
      for (const temp of [11, 12.5, 14, 16, 17, 18, 20, 23, 25, 26, 27, 28])
        for (const wetFrom of [0, 18])
          for (const wet of [0, 2, 3, 5, 6, 7, 9, 10, 11, 12, 16, 18, 24]) {
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
