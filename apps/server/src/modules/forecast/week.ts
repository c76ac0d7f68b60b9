import {
  districtByCode,
  districts,
  type ForecastCrop,
  forecastCrops,
  RUST_BANDS,
  type RustDay,
  riskOf,
  rustCounts,
  rustDays,
  upwindOf,
  type WeatherHour,
  weatherCall,
} from '@kutu/contract';
import { districtCentres } from '@kutu/contract/district-centres';
import type { RiskRow } from './forecast.repo.ts';

/**
 * The oldest weather a run believes (hours since it was fetched): past it, every day of the district is
 * unknown and no advisory goes out (docs/decisions/0126). Four fetches at the default WEATHER_EVERY_HOURS.
 */
export const WEATHER_MAX_AGE_HOURS = 24;

/** Days in a forecast: today (East Africa Time) and the six after it. */
export const FORECAST_DAYS = 7;
/** Uganda and Kenya keep East Africa Time (UTC+3) all year. */
const EAT_OFFSET_MS = 3 * 3_600_000;

/** The local (EAT) date of an instant, and the `n` days from it. */
export function localDays(now: Date, n = FORECAST_DAYS): string[] {
  const start = new Date(now.getTime() + EAT_OFFSET_MS);
  return Array.from({ length: n }, (_, i) =>
    new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + i)).toISOString().slice(0, 10),
  );
}

/**
 * Rust already present in the last 14 days, per `district|crop`: confirmed farmer-weeks (and farmers whose
 * walk an expert or officer confirmed), farmers whose walks found it, and whether the published surfaces show
 * it (a week's confirmed count or the walking farmers at SMALL_COUNT_MIN or more). What is confirmed counts
 * toward the level, walks only from SMALL_COUNT_MIN farmers on (`rustCounts`); only a shown place is named.
 */
export type RustPresent = Map<
  string,
  { confirmed: number; walked: number; shown: boolean; walkedMedian?: number | null }
>;

const nameOf = (code: string) => districtByCode(code)?.name ?? code;

/**
 * Every district's risk per crop for the forecast's days (docs/decisions/0100): its weather (none for a day:
 * unknown), rust in it and in its neighbours, and which of them the day's wind blows from. A day is judged
 * whole only: the forecast's last day, cut short by the service, still counts the hours it has.
 */
export function forecastWeek(weather: Map<string, WeatherHour[]>, present: RustPresent, now: Date): RiskRow[] {
  const days = localDays(now);
  const rows: RiskRow[] = [];
  const has = (code: string, crop: ForecastCrop) => {
    const p = present.get(`${code}|${crop}`);
    return p ? rustCounts(p.confirmed, p.walked) : false;
  };
  for (const crop of forecastCrops) {
    const band = RUST_BANDS[crop];
    for (const d of districts) {
      const hours = weather.get(d.code);
      const byDay = new Map<string, RustDay>((hours ? rustDays(hours, crop) : []).map((r) => [r.day, r]));
      const here = present.get(`${d.code}|${crop}`) ?? { confirmed: 0, walked: 0, shown: false, walkedMedian: null };
      const withRust = d.neighbours.filter((n) => has(n, crop));
      const shown = (code: string) => present.get(`${code}|${crop}`)?.shown === true;
      const hereHasRust = rustCounts(here.confirmed, here.walked);
      const unnamed = (hereHasRust && !here.shown) || withRust.some((n) => !shown(n));
      const centre = districtCentres.get(d.code) ?? [0, 0];
      for (const day of days) {
        const r = byDay.get(day);
        const upwind = upwindOf(
          centre,
          r?.windFromDeg ?? null,
          withRust.map((code) => ({ code, centre: districtCentres.get(code) ?? centre })),
        );
        const level = riskOf(r ? weatherCall(r, crop) : null, {
          confirmedHere: here.confirmed,
          walkedRustHere: here.walked,
          neighbours: withRust,
          upwind,
        });
        rows.push({
          district: d.code,
          crop,
          day,
          level,
          basis: {
            wet_hours: r?.wetHours ?? null,
            longest_run: r?.longestRun ?? null,
            infection_hours: r?.neededHours ?? band.infectionHours,
            band: [band.minC, band.maxC],
            confirmed_here: here.shown && here.confirmed > 0,
            walked_rust_here: here.shown && rustCounts(0, here.walked),
            neighbours: withRust.filter(shown).map(nameOf),
            upwind: upwind.filter(shown).map(nameOf),
            unnamed_near: unnamed,
            walked_median: here.walkedMedian ?? null,
          },
        });
      }
    }
  }
  return rows;
}
