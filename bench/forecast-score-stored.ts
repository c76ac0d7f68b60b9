/**
 * The forecast's score at a national history (npm run bench:forecast-score-stored; docs/decisions/0137).
 *
 * On a temporary PostgreSQL server (scripts/postgres.ts): two years (BENCH_WEEKS, default 104) of forecast
 * runs, BENCH_RUNS_PER_WEEK (default 4) a week, each with every district and county's risk per crop for its
 * 7 days, and confirmed counts in a fifth of the district-weeks, all filled with generate_series. Then the
 * score computed from them (what every request of the desk, the score API and the bulletin did before 0137),
 * BENCH_REPEAT times; the weekly sweep's store; and the score API as an administrator reads it now, BENCH_REPEAT
 * times: p50 and the slowest of each. No walks are seeded (the score reads them as it reads the counts).
 * Exits non-zero when nothing was scored, or the API did not answer the stored score (measured.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import { forecastApi } from '../packages/contract/src/forecast-paths.ts';
import { districts } from '../packages/contract/src/districts.ts';
import type { ForecastScoreReply } from '../packages/contract/src/forecast-hold.ts';
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { atLeast, ensure, percentile } from './measured.ts';
import { createOutbreakRepo } from '../apps/server/src/modules/outbreak/outbreak.repo.ts';
import { createScores, scoreReply } from '../apps/server/src/modules/forecast/score-service.ts';
import { createScoreRepo } from '../apps/server/src/modules/forecast/score.repo.ts';
import { outbreakSources } from '../apps/server/src/ports.ts';
import { createTestApp } from '../apps/server/test/support/app.ts';
import { createUser } from '../apps/server/test/support/users.ts';

const WEEKS = Number(process.env.BENCH_WEEKS ?? 104);
const RUNS_PER_WEEK = Number(process.env.BENCH_RUNS_PER_WEEK ?? 4);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const NOW = new Date('2026-12-01T03:00:00Z');

const ms = (x: number) => `${x.toFixed(1)} ms`;
async function timedRuns<T>(n: number, fn: () => Promise<T>): Promise<{ out: T; ms: number[] }> {
  const times: number[] = [];
  let out: T | undefined;
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    out = await fn();
    times.push(performance.now() - s);
  }
  return { out: out as T, ms: times };
}
const report = (label: string, xs: number[]) =>
  console.log(`${label}: p50 ${ms(percentile(xs, 50, label))}, slowest ${ms(Math.max(...xs))} (${xs.length} runs)`);

const pg = await startTemporaryPostgres();
process.env.TEST_DATABASE_URL = pg.url;
const t = await createTestApp();
try {
  t.clock.set(NOW);
  const db = t.deps.database.db;
  const codes = districts.map((d) => d.code);
  const list = sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  );
  const s0 = performance.now();
  // Runs: RUNS_PER_WEEK a week, 6 hours apart from Monday 05:00 UTC, WEEKS weeks back from this Monday.
  await db.execute(sql`insert into forecast_runs (ran_at, rules_version, weather_fetched_at)
    select w + r * interval '6 hours', 'bench', w + r * interval '6 hours'
    from generate_series(date_trunc('week', ${NOW.toISOString()}::timestamptz) - ${WEEKS}::int * interval '1 week'
      + interval '5 hours', date_trunc('week', ${NOW.toISOString()}::timestamptz) - interval '1 week' + interval '5 hours',
      interval '1 week') w,
      generate_series(0, ${RUNS_PER_WEEK - 1}::int) r`);
  // Each run: every district and crop for its 7 days, the level and rust near from a hash of them.
  await db.execute(sql`insert into forecast_risks (run_id, district, crop, day, level, basis)
    select r.id, d, c, (r.ran_at + k * interval '1 day')::date,
      (array['low', 'moderate', 'high'])[1 + abs(hashtext(d || c || r.id::text || k::text)) % 3],
      jsonb_build_object('confirmed_here', abs(hashtext(d || c || r.id::text)) % 4 = 0, 'neighbours', '[]'::jsonb)
    from forecast_runs r, unnest(array[${list}]::text[]) d, unnest(array['maize', 'beans']) c, generate_series(0, 6) k`);
  // Confirmed farmer-weeks in a fifth of the district-weeks.
  await db.execute(sql`insert into outbreak_counts (district, crop, week_start, demo, confirmed)
    select d, c, w::date, false, 1 + abs(hashtext(d || c || w::text)) % 6
    from unnest(array[${list}]::text[]) d, unnest(array['maize', 'beans']) c,
      generate_series(date_trunc('week', ${NOW.toISOString()}::timestamptz) - ${WEEKS}::int * interval '1 week',
        date_trunc('week', ${NOW.toISOString()}::timestamptz), interval '1 week') w
    where abs(hashtext(d || c || w::text || 'x')) % 5 = 0`);
  await db.execute(sql`analyze`);
  const n = (
    await db.execute(sql`select (select count(*) from forecast_runs)::int as runs,
    (select count(*) from forecast_risks)::int as risks, (select count(*) from outbreak_counts)::int as counts`)
  ).rows[0] as { runs: number; risks: number; counts: number };
  console.log(
    `${WEEKS} weeks × ${RUNS_PER_WEEK} runs over ${codes.length} districts: ${n.runs} runs, ${n.risks} risk rows, ${n.counts} count rows (seeded in ${ms(performance.now() - s0)})`,
  );
  atLeast(n.risks, 1, 'risk rows seeded');

  const counts = createOutbreakRepo(db, outbreakSources);
  const scores = createScores({ clock: t.clock }, createScoreRepo(db), {
    outbreak: { weeklyCounts: (q) => counts.weekly({ ...q, realOnly: true }) },
  });
  // Before 0137: every request computed this.
  const computed = await timedRuns(REPEAT, () => scores.compute());
  report('score computed from the runs (each request before)', computed.ms);
  atLeast(computed.out.cases, 1, 'district-weeks scored');
  console.log(`  ${computed.out.cases} district-weeks over ${computed.out.weeks} weeks`);

  const stored = await timedRuns(1, () => scores.storeWeek());
  ensure(stored.out, "the week's score stored by the sweep");
  report('the weekly sweep: computed and stored', stored.ms);
  const again = await timedRuns(REPEAT, () => scores.storeWeek());
  ensure(!again.out, 'a second sweep of the week storing nothing');
  report('the sweep again in the week (one read, nothing stored)', again.ms);

  const admin = await createUser(t, 'admin');
  const read = await timedRuns(REPEAT, async () =>
    (await t.app.inject({ method: 'GET', url: forecastApi.score, headers: admin.headers })).json<ForecastScoreReply>(),
  );
  report('GET /api/forecast/score/ now (the stored row)', read.ms);
  ensure(
    isDeepStrictEqual(read.out.score, scoreReply(await scores.compute())),
    'the API answering the score the sweep stored',
  );
} finally {
  await t.close();
  pg.stop();
}
