import {
  type compassPoints,
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
  type WeatherCall,
  weatherCall,
} from '@kutu/contract';
import { districtCentres } from '@kutu/contract/district-centres';
import { districtPoints } from '@kutu/contract/district-points';
import type { RiskRow } from './forecast.repo.ts';

/**
 * The oldest weather a run believes (hours since it was fetched): past it, every day of the district is
 * unknown and no advisory goes out (docs/decisions/0126). Four fetches at the default WEATHER_EVERY_HOURS.
 */
export const WEATHER_MAX_AGE_HOURS = 24;

/** A district's weather per point (index into districtPoints, 0 the centre): the hours and the place's elevation. */
export type DistrictWeather = Map<string, Map<number, { hours: WeatherHour[]; elevation: number | null }>>;

const callRank: Record<WeatherCall, number> = { dry: 0, nearly: 1, infects: 2 };
const COMPASS: (typeof compassPoints)[number][] = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];

/** How far (km, 0.1) and which way (a compass point; null at the centre itself) a point lies from the centre. */
function fromCentre(centre: readonly [number, number], p: readonly [number, number]) {
  const dy = (p[0] - centre[0]) * 111.2;
  const dx = (p[1] - centre[1]) * 111.2 * Math.cos((centre[0] * Math.PI) / 180);
  const km = Math.round(Math.hypot(dx, dy) * 10) / 10;
  const bearing = ((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360;
  return { km, direction: km === 0 ? null : COMPASS[Math.round(bearing / 45) % 8] };
}

type Judged = { i: number; r: RustDay; call: WeatherCall };

/**
 * The point whose weather is worst for the rust (infects, then nearly, then dry; then more infections, then
 * further toward one), the first of equals (the centre first), among the points whose day is known.
 */
function drivingPoint(judged: readonly (Judged | null)[]): Judged | null {
  const key = (j: Judged) => [callRank[j.call], j.r.infectionRuns, j.r.progress];
  const worse = (a: Judged, b: Judged) => {
    const [x, y] = [key(a), key(b)];
    const k = x.findIndex((v, n) => v !== y[n]);
    return k >= 0 && x[k] > y[k];
  };
  let best: Judged | null = null;
  for (const j of judged) if (j && (!best || worse(j, best))) best = j;
  return best;
}

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
 * Every district's risk per crop for the forecast's days (docs/decisions/0100): its weather at each of its
 * points (docs/decisions/0134), rust in it and in its neighbours, and which of them the day's wind blows from.
 * The day is judged at the point whose weather is worst for the rust (a highland point with a cool dew night
 * decides, not the warm lowland centre); a point without weather for the day cannot be judged, so the known
 * points decide a moderate or high day, but a low day needs every point known (the unknown one might infect):
 * otherwise it is unknown. None known: unknown. A day is judged whole only: the forecast's last day, cut short
 * by the service, still counts the hours it has.
 */
export function forecastWeek(weather: DistrictWeather, present: RustPresent, now: Date): RiskRow[] {
  const days = localDays(now);
  const rows: RiskRow[] = [];
  const has = (code: string, crop: ForecastCrop) => {
    const p = present.get(`${code}|${crop}`);
    return p ? rustCounts(p.confirmed, p.walked) : false;
  };
  for (const crop of forecastCrops) {
    const band = RUST_BANDS[crop];
    for (const d of districts) {
      const centre = districtCentres.get(d.code) ?? [0, 0];
      const points = districtPoints.get(d.code) ?? [centre];
      const weatherHere = weather.get(d.code);
      const byPoint = points.map((_, i) => {
        const w = weatherHere?.get(i);
        return new Map<string, RustDay>((w ? rustDays(w.hours, crop) : []).map((r) => [r.day, r]));
      });
      const here = present.get(`${d.code}|${crop}`) ?? { confirmed: 0, walked: 0, shown: false, walkedMedian: null };
      const withRust = d.neighbours.filter((n) => has(n, crop));
      const shown = (code: string) => present.get(`${code}|${crop}`)?.shown === true;
      const hereHasRust = rustCounts(here.confirmed, here.walked);
      const unnamed = (hereHasRust && !here.shown) || withRust.some((n) => !shown(n));
      for (const day of days) {
        const judged = byPoint.map((m, i) => {
          const r = m.get(day);
          const call = r ? weatherCall(r, crop) : null;
          return r && call ? { i, r, call } : null;
        });
        const unknownPoints = judged.filter((j) => j === null).length;
        const drove = drivingPoint(judged);
        const r = drove?.r;
        const upwind = upwindOf(
          centre,
          r?.windFromDeg ?? null,
          withRust.map((code) => ({ code, centre: districtCentres.get(code) ?? centre })),
        );
        const judgedLevel = riskOf(drove?.call ?? null, {
          confirmedHere: here.confirmed,
          walkedRustHere: here.walked,
          neighbours: withRust,
          upwind,
        });
        // Low only when every point is known: a point without weather might be the one that infects.
        const level = judgedLevel === 'low' && unknownPoints > 0 ? 'unknown' : judgedLevel;
        const at = drove ? points[drove.i] : null;
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
            point:
              drove && at
                ? {
                    lat: at[0],
                    lng: at[1],
                    elevation: weatherHere?.get(drove.i)?.elevation ?? null,
                    ...fromCentre(centre, at),
                  }
                : null,
            points: points.length,
            points_unknown: unknownPoints,
          },
        });
      }
    }
  }
  return rows;
}
