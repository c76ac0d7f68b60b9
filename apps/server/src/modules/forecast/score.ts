/**
 * Is the forecast any good? (docs/decisions/0129) Pure: each district, crop and forecast week becomes a case
 * when someone looked (SMALL_COUNT_MIN farmers walked, or rust was confirmed, 7–21 days after the week began);
 * the case is observed when rust was confirmed or walked then. The scores: the 2×2 table of "high" against
 * observed (hit rate, false-alarm ratio, Peirce skill score), the Brier score of the levels and of "rust near
 * alone" with the skill of the one over the other, and a reliability table per level.
 */
import type { RiskLevel } from '@kutu/contract';

/** A week's forecast of a district and crop: its worst level, and whether rust was near when it was made. */
export type WeekForecast = { district: string; crop: string; week: string; level: RiskLevel; rustNear: boolean };
/** What was seen of a district and crop on a day: farmers who walked, walks that found rust, confirmed cases. */
export type Outcome = {
  district: string;
  crop: string;
  day: string;
  walkers: number;
  walkedRust: number;
  confirmed: number;
};
export type ScoreCase = { level: Exclude<RiskLevel, 'unknown'>; rustNear: boolean; observed: boolean; week: string };

/** An outcome counts for a forecast week from 7 to 21 days after its Monday (days 7..20). */
export const OUTCOME_FROM_DAYS = 7;
export const OUTCOME_TO_DAYS = 21;
const DAY_MS = 86_400_000;
const dayNumber = (d: string) => Math.round(new Date(`${d}T00:00:00Z`).getTime() / DAY_MS);

/**
 * The cases: a week forecast (not "unknown") with, in its outcome window, at least `minWalkers` farmers who
 * walked (the walkers summed over the window's days as given: one row per farmer-day is the caller's unit) or
 * a confirmation. Observed: any confirmation or any walk that found rust in the window. A day's outcome
 * counts for every week whose window holds it (two weeks' windows overlap by a week).
 */
export function scoreCases(forecasts: WeekForecast[], outcomes: Outcome[], minWalkers: number): ScoreCase[] {
  const byKey = new Map<string, (Outcome & { n: number })[]>();
  for (const o of outcomes) {
    const k = `${o.district}|${o.crop}`;
    (byKey.get(k) ?? byKey.set(k, []).get(k)!).push({ ...o, n: dayNumber(o.day) });
  }
  const out: ScoreCase[] = [];
  for (const f of forecasts) {
    if (f.level === 'unknown') continue;
    const start = dayNumber(f.week);
    let walkers = 0;
    let rust = 0;
    let confirmed = 0;
    for (const o of byKey.get(`${f.district}|${f.crop}`) ?? []) {
      const d = o.n - start;
      if (d < OUTCOME_FROM_DAYS || d >= OUTCOME_TO_DAYS) continue;
      walkers += o.walkers;
      rust += o.walkedRust;
      confirmed += o.confirmed;
    }
    if (walkers < minWalkers && confirmed === 0) continue;
    out.push({ level: f.level, rustNear: f.rustNear, observed: confirmed > 0 || rust > 0, week: f.week });
  }
  return out;
}

export type ReliabilityRow = {
  level: 'low' | 'moderate' | 'high';
  cases: number;
  observed: number;
  rate: number | null;
};
export type ForecastScore = {
  cases: number;
  /** Distinct forecast weeks behind the score. */
  weeks: number;
  /** a: high and observed; b: high, not observed; c: not high, observed; d: neither. */
  table: { a: number; b: number; c: number; d: number };
  hitRate: number | null;
  falseAlarmRatio: number | null;
  /** Hit rate less the false-alarm rate (b / (b + d)); 0 is no skill, 1 perfect. */
  peirce: number | null;
  /** Brier score of the levels, each level's probability its observed frequency among the cases. */
  brier: number | null;
  /** The same of "rust near alone": two classes, rust near or not. */
  brierBaseline: number | null;
  /** 1 − brier / brierBaseline: above 0, the weather adds to rust near. */
  brierSkill: number | null;
  reliability: ReliabilityRow[];
};

const ratio = (n: number, d: number) => (d === 0 ? null : n / d);

/** Brier score of a partition of the cases, each class forecast at its own observed frequency. */
function partitionBrier(cases: ScoreCase[], classOf: (c: ScoreCase) => string): number | null {
  if (!cases.length) return null;
  const groups = new Map<string, { n: number; o: number }>();
  for (const c of cases) {
    const g = groups.get(classOf(c)) ?? groups.set(classOf(c), { n: 0, o: 0 }).get(classOf(c))!;
    g.n++;
    if (c.observed) g.o++;
  }
  let sum = 0;
  for (const { n, o } of groups.values()) {
    const p = o / n;
    sum += o * (1 - p) ** 2 + (n - o) * p ** 2;
  }
  return sum / cases.length;
}

export function forecastScore(cases: ScoreCase[]): ForecastScore {
  const table = { a: 0, b: 0, c: 0, d: 0 };
  for (const k of cases) {
    const high = k.level === 'high';
    if (high && k.observed) table.a++;
    else if (high) table.b++;
    else if (k.observed) table.c++;
    else table.d++;
  }
  const { a, b, c, d } = table;
  const hitRate = ratio(a, a + c);
  const falseAlarmRate = ratio(b, b + d);
  const brier = partitionBrier(cases, (k) => k.level);
  const brierBaseline = partitionBrier(cases, (k) => String(k.rustNear));
  return {
    cases: cases.length,
    weeks: new Set(cases.map((k) => k.week)).size,
    table,
    hitRate,
    falseAlarmRatio: ratio(b, a + b),
    peirce: hitRate === null || falseAlarmRate === null ? null : hitRate - falseAlarmRate,
    brier,
    brierBaseline,
    brierSkill: brier === null || !brierBaseline ? null : 1 - brier / brierBaseline,
    reliability: (['low', 'moderate', 'high'] as const).map((level) => {
      const of = cases.filter((k) => k.level === level);
      const observed = of.filter((k) => k.observed).length;
      return { level, cases: of.length, observed, rate: ratio(observed, of.length) };
    }),
  };
}
