/**
 * The national rust bulletin at scale (npm run bench:bulletin; docs/decisions/0122).
 *
 * On a temporary PostgreSQL server (scripts/postgres.ts): BENCH_FARMERS (default 200,000) farmers spread over
 * every district and county, one maize or bean field each; a year of BENCH_ANALYSES analyses (default
 * 10,000,000; a third confident rust, a fifth of those confirmed by an expert), counted by the outbreak
 * repair recount; BENCH_WALKS scouting walks (default 1,000,000) over the same year, all filled with
 * generate_series. One forecast run over a local Open-Meteo stand-in (cool wet nights in a third of the
 * districts, hot and dry elsewhere). Then, as an administrator through app.inject, the bulletin as CSV and as
 * PDF, BENCH_RUNS times each: p50 and the slowest (target <= 10 s), and its parts on their own.
 * Exits non-zero when no bulletin was built (measured.ts). Figures, not a test: the machine's other load shows in them.
 */
import os from 'node:os';
import { districts } from '../packages/contract/src/districts.ts';
import { forecastApi } from '../packages/contract/src/forecast-paths.ts';
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { atLeast, ensure, percentile, timings } from './measured.ts';
import { seedAnalyses, seedVerdicts } from './seed.ts';
import { startWeatherStandIn } from './weather-stand-in.ts';
import { recountAll, createOutbreakRepo } from '../apps/server/src/modules/outbreak/outbreak.repo.ts';
import { createWalksRepo } from '../apps/server/src/modules/fields/walks.repo.ts';
import { createForecastRepo } from '../apps/server/src/modules/forecast/forecast.repo.ts';
import { weekStartOf } from '../apps/server/src/lib/iso-weeks.ts';
import { createTestApp } from '../apps/server/test/support/app.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { clinicFarmerSql, fieldPhotoSql, outbreakSources } from '../apps/server/src/ports.ts';

const FARMERS = Number(process.env.BENCH_FARMERS ?? 200_000);
const ANALYSES = Number(process.env.BENCH_ANALYSES ?? 10_000_000);
const WALKS = Number(process.env.BENCH_WALKS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_MS = 10_000;

const ms = (x: number) => `${x.toFixed(0)} ms`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const s = performance.now();
  const out = await fn();
  console.log(`${label}: ${ms(performance.now() - s)}`);
  return out;
}

// Open-Meteo's replies for many places at once: cool wet nights for every third place, hot and dry elsewhere.
const weather = await startWeatherStandIn((lat, lng) =>
  Math.round(lat * 1000 + lng * 1000) % 3 === 0 ? 'wet' : 'dry',
);

const pg = await startTemporaryPostgres();
process.env.TEST_DATABASE_URL = pg.url;
const t = await createTestApp({
  env: { WEATHER_URL: weather.url },
  // The run's advisories wait in the outbox: their sending is bench/fanout.ts's.
  deliveryOptions: { sendAtOnce: false },
});
try {
  const db = t.deps.database;
  const expert = await createUser(t, 'expert');
  const codes = districts.map((d) => d.code);
  console.log(`${FARMERS} farmers, ${ANALYSES} analyses, ${WALKS} walks over ${codes.length} districts and counties`);
  await timed('farmers and fields', async () => {
    await db.execute(
      `insert into users (username, role, phone, language, district, activated_at, phone_verified_at)
       select 'bb_' || g, 'farmer', '+2568' || lpad(g::text, 8, '0'), 'en', ($1::text[])[1 + (g * 7) % $2], now(), now()
       from generate_series(1, $3::int) g`,
      [codes, codes.length, FARMERS],
    );
    await db.execute(
      `insert into fields (user_id, name, crop, number, district, created_at, updated_at)
       select id, 'Field', case when id % 5 < 3 then 'maize' else 'beans' end, 1, district, now() - interval '1 year', now()
       from users where username like 'bb\\_%'`,
    );
  });
  const [{ first_user: firstUser, first_field: firstField, fields: fieldCount }] = (
    await db.execute(
      `select min(u.id) as first_user, min(f.id) as first_field, count(f.id)::int as fields
       from users u join fields f on f.user_id = u.id where u.username like 'bb\\_%'`,
    )
  ).rows as { first_user: number; first_field: number; fields: number }[];
  await timed(`${ANALYSES} analyses (one INSERT … SELECT generate_series)`, () =>
    seedAnalyses(db, { firstFarmer: firstUser, farmers: FARMERS, count: ANALYSES, days: 365 }),
  );
  await timed('expert verdicts on a fifth of the rust photos', () => seedVerdicts(db, expert.id));
  await timed(`${WALKS} walks`, () =>
    db.execute(
      `insert into scouting_walks (field_id, user_id, channel, walked_at, stops, plants_looked, plants_rust, advice_rule,
         rules_version, advice_action, advice_steps, advice_sources, created_at)
       select f.id, f.user_id, 'web', w.at, '[]'::jsonb, 20, (w.i * 31) % 21 * ((w.i % 4 = 0)::int),
         'bench', 'bench', 'keep_walking', '[]'::jsonb, '[]'::jsonb, w.at
       from (select i, $1 + (i * 104729) % $2 as field_id, now() - ((i * 7919) % (365 * 86400)) * interval '1 second' as at
             from generate_series(1::bigint, $3::bigint) i) w
       join fields f on f.id = w.field_id`,
      [firstField, fieldCount, WALKS],
    ),
  );
  const recount = await timed('outbreak recount (cases, farmer-weeks, counts)', () =>
    recountAll(db.db, new Date(), outbreakSources),
  );
  console.log(`  ${recount.cases} cases, ${recount.counts} counts`);
  await timed('vacuum analyze', () => db.execute('vacuum analyze'));
  // Signed in after the filling, which outlasts an access token.
  const { headers } = await createUser(t, 'admin');
  const ran = await timed('one forecast run (weather, risks, advisories)', () =>
    t.app.inject({ method: 'POST', url: forecastApi.run, headers }),
  );
  if (ran.statusCode !== 200) throw new Error(`forecast run answered ${ran.statusCode}: ${ran.body}`);
  console.log(`database: PostgreSQL; load average ${load()}`);

  const results: Record<'csv' | 'pdf', { times: number[]; bytes: number }> = {
    csv: { times: [], bytes: 0 },
    pdf: { times: [], bytes: 0 },
  };
  for (let i = 0; i < RUNS; i++) {
    for (const kind of ['csv', 'pdf'] as const) {
      const s = performance.now();
      const res = await t.app.inject({
        method: 'GET',
        url: kind === 'csv' ? forecastApi.bulletinCsv : forecastApi.bulletinPdf,
        headers,
      });
      results[kind].times.push(performance.now() - s);
      ensure(res.statusCode === 200, `the bulletin as ${kind} (answered ${res.statusCode}: ${res.body.slice(0, 200)})`);
      results[kind].bytes = atLeast(res.rawPayload.length, 1, `the bulletin's ${kind} bytes`);
      if (kind === 'csv') {
        const lines = res.body.trim().split('\n');
        const first = lines.filter((l) => /,high,/.test(l) && /,0,[^,]*,[^,]*,[^,]*$/.test(l)).length;
        if (i === 0) console.log(`CSV: ${lines.length - 1} rows, ${first} high with nothing confirmed`);
      }
    }
  }
  let slow = false;
  for (const kind of ['csv', 'pdf'] as const) {
    const { bytes } = results[kind];
    const times = timings(results[kind].times, `the bulletin as ${kind}`);
    const worst = Math.max(...times);
    slow ||= worst > TARGET_MS;
    console.log(
      `bulletin ${kind.toUpperCase()} (${bytes} bytes): p50 ${ms(percentile(times, 50, kind))}, slowest ${ms(worst)} over ${RUNS} (target <= ${TARGET_MS} ms)`,
    );
  }
  // Where the time goes: each read the bulletin makes, on its own (median of 5).
  const now = new Date();
  const run = await createForecastRepo(db.db, clinicFarmerSql).latestRun();
  const parts: [string, () => Promise<unknown>][] = [
    [
      'confirmed counts of 14 days',
      () =>
        createOutbreakRepo(db.db, outbreakSources).weekly({
          from: weekStartOf(new Date(now.getTime() - 13 * 86_400_000)),
          realOnly: true,
        }),
    ],
    [
      "last week's walks' median incidence",
      () =>
        createWalksRepo(db.db, fieldPhotoSql).weeklyIncidence(weekStartOf(new Date(now.getTime() - 7 * 86_400_000))),
    ],
    ["the run's risks (maize)", () => createForecastRepo(db.db, clinicFarmerSql).risks(run!.id, 'maize')],
  ];
  for (const [name, read] of parts) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      await read();
      times.push(performance.now() - s);
    }
    console.log(`  ${name}: p50 ${ms(percentile(times, 50, name))}`);
  }
  console.log(`load average ${load()}`);
  if (slow) console.log('over the target');
} finally {
  await t.close();
  pg.stop();
  weather.close();
}
