/**
 * Replays simulated seasons through the forecast's scoring (apps/server/src/modules/forecast/score.ts,
 * docs/decisions/0129) and shows the scores come out as the seasons were built. `node bench/forecast-score.ts
 * [seed] [weeks]`; exits non-zero when a score is off.
 *
 * A season: every district and crop, every third week (52 such weeks by default) a level drawn (low 50 %, moderate 30 %, high 20 %) and rust
 * near with a chance per level (20, 60, 100 %); rust then seen 7–21 days later with a chance per level (5, 25,
 * 60 %) in the season "with skill", or 22 % whatever the level in the season "without skill". Four weeks in
 * five, SMALL_COUNT_MIN or more farmers walk in the window (a week in five, fewer: it must not count); rust
 * is seen by a walk or a confirmation on a day in the window, and decoys (rust walked 0–6 or 21–27 days after
 * the week began) must not count either. The answer is known twice: the generator's own 2×2 table, which the
 * score must equal exactly, and the scores the chances give (within sampling error).
 * What it cannot show: no real season is reachable from here (no walk or confirmation data leaves a
 * deployment), so Kutu's own forecast is not scored by this bench; the chances above are this file's.
 */
import { districts, SMALL_COUNT_MIN } from '@kutu/contract';
import {
  forecastScore,
  type Outcome,
  scoreCases,
  type WeekForecast,
} from '../apps/server/src/modules/forecast/score.ts';
import { ensure } from './measured.ts';

const seed = Number(process.argv[2] ?? 11);
const WEEKS = Number(process.argv[3] ?? 52);
let state = seed >>> 0 || 1;
const rand = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 4_294_967_296;
};
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

type Level = 'low' | 'moderate' | 'high';
const SHARE: Record<Level, number> = { low: 0.5, moderate: 0.3, high: 0.2 };
const NEAR: Record<Level, number> = { low: 0.2, moderate: 0.6, high: 1 };
const SEEN: Record<Level, number> = { low: 0.05, moderate: 0.25, high: 0.6 };
const LEVELS: Level[] = ['low', 'moderate', 'high'];
const day = (week: string, plus: number) =>
  new Date(new Date(`${week}T00:00:00Z`).getTime() + plus * 86_400_000).toISOString().slice(0, 10);

/** What the chances give, with `seen` the chance of rust per level. */
function expected(seen: Record<Level, number>) {
  const pObs = LEVELS.reduce((a, l) => a + SHARE[l] * seen[l], 0);
  const hit = (SHARE.high * seen.high) / pObs;
  const falseRate = (SHARE.high * (1 - seen.high)) / (1 - pObs);
  const brier = LEVELS.reduce((a, l) => a + SHARE[l] * seen[l] * (1 - seen[l]), 0);
  const near = LEVELS.reduce((a, l) => a + SHARE[l] * NEAR[l], 0);
  const pNear = LEVELS.reduce((a, l) => a + SHARE[l] * NEAR[l] * seen[l], 0) / near;
  const pFar = LEVELS.reduce((a, l) => a + SHARE[l] * (1 - NEAR[l]) * seen[l], 0) / (1 - near);
  const baseline = near * pNear * (1 - pNear) + (1 - near) * pFar * (1 - pFar);
  return { hitRate: hit, falseAlarmRatio: 1 - seen.high, peirce: hit - falseRate, brierSkill: 1 - brier / baseline };
}

function season(seen: Record<Level, number>) {
  const forecasts: WeekForecast[] = [];
  const outcomes: Outcome[] = [];
  const table = { a: 0, b: 0, c: 0, d: 0 };
  for (let w = 0; w < WEEKS; w++) {
    // Every third week: a week's window (its days 7–20) holds the next two weeks, so the weeks scored here
    // do not share outcomes and the generator's table is the answer (the server's weeks do overlap).
    const week = day('2025-01-06', 21 * w);
    for (const d of districts)
      for (const crop of forecastCrops) {
        const r = rand();
        const level: Level = r < SHARE.low ? 'low' : r < SHARE.low + SHARE.moderate ? 'moderate' : 'high';
        forecasts.push({ district: d.code, crop, week, level, rustNear: rand() < NEAR[level] });
        const observed = rand() < seen[level];
        const looked = rand() < 0.8;
        const at = (plus: number, walkers: number, walkedRust: number, confirmed = 0) =>
          outcomes.push({ district: d.code, crop, day: day(week, plus), walkers, walkedRust, confirmed });
        // A decoy outside the window: rust walked too early or too late.
        if (rand() < 0.3) at(rand() < 0.5 ? int(0, 6) : int(21, 27), SMALL_COUNT_MIN + 2, 1);
        if (!looked) {
          // Fewer than the minimum walked, nothing confirmed: not a case, rust seen or not.
          at(int(7, 20), int(0, SMALL_COUNT_MIN - 1), observed ? 1 : 0);
          continue;
        }
        // The walkers over two days of the window; rust by a walk, or by a confirmation.
        const walkers = SMALL_COUNT_MIN + int(0, 4);
        const first = int(1, walkers - 1);
        const byWalk = rand() < 0.5;
        at(int(7, 20), first, observed && byWalk ? 1 : 0);
        at(int(7, 20), walkers - first, 0, observed && !byWalk ? 1 : 0);
        const high = level === 'high';
        if (high && observed) table.a++;
        else if (high) table.b++;
        else if (observed) table.c++;
        else table.d++;
      }
  }
  return { forecasts, outcomes, table };
}

let failed = 0;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed++;
};
const f3 = (x: number | null) => (x === null ? 'none' : x.toFixed(3));

for (const [name, seen, tolerance] of [
  ['with skill', SEEN, 0.03],
  ['without skill', { low: 0.22, moderate: 0.22, high: 0.22 }, 0.03],
] as const) {
  const s = season(seen);
  const started = performance.now();
  const score = forecastScore(scoreCases(s.forecasts, s.outcomes, SMALL_COUNT_MIN));
  const ms = performance.now() - started;
  const want = expected(seen);
  console.log(
    `\nSeason ${name}: ${s.forecasts.length} district-crop-weeks, ${s.outcomes.length} outcome rows, scored in ${ms.toFixed(0)} ms`,
  );
  console.log(`  cases ${score.cases} over ${score.weeks} weeks; table ${JSON.stringify(score.table)}`);
  console.log(
    `  hit rate ${f3(score.hitRate)} (want ${f3(want.hitRate)}), false-alarm ratio ${f3(score.falseAlarmRatio)} (want ${f3(want.falseAlarmRatio)}), Peirce ${f3(score.peirce)} (want ${f3(want.peirce)})`,
  );
  console.log(
    `  Brier ${f3(score.brier)}, rust near alone ${f3(score.brierBaseline)}, skill ${f3(score.brierSkill)} (want ${f3(want.brierSkill)})`,
  );
  for (const r of score.reliability)
    console.log(`  ${r.level.padEnd(8)} ${String(r.cases).padStart(6)} cases, rust seen in ${f3(r.rate)}`);
  check(JSON.stringify(score.table) === JSON.stringify(s.table), `${name}: the table is the generator's, exactly`);
  check(score.weeks === WEEKS, `${name}: every week scored`);
  for (const k of ['hitRate', 'falseAlarmRatio', 'peirce', 'brierSkill'] as const)
    check(
      Math.abs((score[k] ?? Number.NaN) - want[k]) <= tolerance,
      `${name}: ${k} within ${tolerance} of the chances'`,
    );
}
console.log(
  '\nNo real season is scored here: walks and confirmations stay in a deployment. The server scores its own weeks (docs/decisions/0129).',
);
ensure(failed === 0, `every score as the seasons were built (${failed} off)`);
