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
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { districts } from '../packages/contract/src/districts.ts';
import { forecastApi } from '../packages/contract/src/forecast-paths.ts';
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { atLeast, ensure, percentile, timings } from './measured.ts';
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
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../apps/server/test/fixtures/open-meteo/${name}.json`, import.meta.url), 'utf8'));
const replies = { wet: fixture('cool-wet-nights'), dry: fixture('hot-dry') };
const weather = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://stub');
  const lats = (url.searchParams.get('latitude') ?? '').split(',');
  const lngs = (url.searchParams.get('longitude') ?? '').split(',');
  const body = lats.map((lat, i) => ({
    ...(Math.round(Number(lat) * 1000 + Number(lngs[i]) * 1000) % 3 === 0 ? replies.wet : replies.dry),
    latitude: Number(lat),
    longitude: Number(lngs[i]),
  }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body.length === 1 ? body[0] : body));
});
await new Promise<void>((r) => weather.listen(0, '127.0.0.1', r));

const pg = await startTemporaryPostgres();
process.env.TEST_DATABASE_URL = pg.url;
const t = await createTestApp({
  env: { WEATHER_URL: `http://127.0.0.1:${(weather.address() as AddressInfo).port}` },
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
    db.execute(
      `insert into analyses (user_id, image_path, outcome, rust_class, confidence, unsure, probabilities, model_version, crop, created_at)
       select $1 + (i * 7919) % $2, 'analyses/bench.jpg', 'diagnosis',
         case when i % 3 = 0 then 'common_rust' when i % 3 = 1 then 'healthy' else 'other_disease' end,
         0.9, i % 17 = 0, '{"common_rust":0.9,"healthy":0.05,"other_disease":0.05}'::jsonb, 'v-bench',
         case when i % 5 < 3 then 'maize' when i % 5 = 3 then 'beans' else null end,
         now() - ((i * 104729) % (365 * 86400)) * interval '1 second'
       from generate_series(1::bigint, $3::bigint) as i`,
      [firstUser, FARMERS, ANALYSES],
    ),
  );
  await timed('expert verdicts on a fifth of the rust photos', () =>
    db.execute(
      `insert into expert_reviews (analysis_id, reviewer_id, verdict, reviewed_at)
       select id, $1, case when id % 10 = 0 then 'healthy' else 'common_rust' end, now()
       from analyses where rust_class = 'common_rust' and id % 5 = 0`,
      [expert.id],
    ),
  );
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
