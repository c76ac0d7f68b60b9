/**
 * Outbreak watch at scale (npm run bench:outbreak).
 *
 * On a temporary PostgreSQL server, filled set-based as bench/bulletin.ts is (each table in one INSERT … SELECT
 * over generate_series, so ten million analyses take minutes): BENCH_FARMERS farmers (default one for every 50
 * analyses, at least 5,000) spread over all 159 districts and counties, and BENCH_ANALYSES (default 1,000,000)
 * analyses over two years (about a third confident rust, a fifth of those given an expert's verdict, a few
 * "not rust"), counted once by the repair recount, then vacuumed and analysed (the steady state autovacuum
 * keeps a served database in). Prints the seeding's time, then, BENCH_RUNS times each:
 * - the map's data as served: GET /api/outbreak/map/ through app.inject (validation, per-process cache, privacy
 *   rule, reply) for each crop, and uncached (the service's SQL and privacy rule, what every request costs right
 *   after a count changes): p50 and p95 (goal p95 ≤ 100 ms);
 * - a new confirmation: an expert's verdict row on an unreviewed reported case, then the outbreak service's
 *   record() (case, farmer-week, counts and alert rule in one transaction): p50 and p95 (goal p95 ≤ 50 ms);
 * - the open weekly feed (GET /api/open/outbreak/weekly.csv and .geojson, 12 weeks, no sign-in, each request
 *   from an address of its own so the per-address limit is not what is timed): p50 and p95.
 * BENCH_EXPLAIN=1 prints EXPLAIN (ANALYZE, BUFFERS) of every read the uncached map and the feed make.
 * Exits non-zero (bench/measured.ts) when a figure was not measured. Figures, not a test: the machine's other
 * load shows in them.
 */
import os from 'node:os';
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { districts } from '../packages/contract/src/districts.ts';
import { outbreakApi } from '../packages/contract/src/outbreak-paths.ts';
import { createTestApp, testDelivery } from '../apps/server/test/support/app.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { createOutbreakService } from '../apps/server/src/modules/outbreak/outbreak.service.ts';
import { recountAll } from '../apps/server/src/modules/outbreak/outbreak.repo.ts';
import { createMemoryCoordinator } from '../apps/server/src/adapters/coordinator.ts';
import { createListCaches } from '../apps/server/src/lib/list-cache.ts';
import { outbreakSources } from '../apps/server/src/ports.ts';
import { atLeast, ensure, percentile } from './measured.ts';
import { reads, recording, type Statement } from './pg-queries.ts';
import { seedAnalyses, seedVerdicts } from './seed.ts';

const ANALYSES = atLeast(Number(process.env.BENCH_ANALYSES ?? 1_000_000), 1, 'analyses (BENCH_ANALYSES)');
const FARMERS = atLeast(
  Number(process.env.BENCH_FARMERS ?? Math.max(5_000, Math.round(ANALYSES / 50))),
  1,
  'farmers (BENCH_FARMERS)',
);
const RUNS = atLeast(Number(process.env.BENCH_RUNS ?? 200), 1, 'timed runs (BENCH_RUNS)');
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';
const GOALS = { map: 100, confirmation: 50 };

const ms = (x: number) => `${x.toFixed(1)} ms`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const s = performance.now();
  const out = await fn();
  console.log(`  ${label}: ${Math.round(performance.now() - s)} ms`);
  return out;
}
/** p50 and p95 of `xs`, and against `goal` (ms) when there is one; true when the p95 is within it. */
function report(label: string, xs: number[], goal?: number): boolean {
  const p95 = percentile(xs, 95, label);
  const within = goal === undefined || p95 <= goal;
  const against = goal === undefined ? 'no goal set' : `goal p95 ≤ ${goal} ms: ${within ? 'met' : 'MISSED'}`;
  console.log(`${label} (${xs.length} runs): p50 ${ms(percentile(xs, 50, label))}, p95 ${ms(p95)} (${against})`);
  return within;
}

const pg = await startTemporaryPostgres();
process.env.TEST_DATABASE_URL = pg.url;
const t = await createTestApp({ env: { RETRAIN_AFTER_SAMPLES: '0' } });
try {
  const db = t.deps.database;
  const expert = await createUser(t, 'expert');
  const codes = districts.map((d) => d.code);
  console.log(`${FARMERS} farmers and ${ANALYSES} analyses over ${codes.length} districts and counties, on PostgreSQL`);
  const seeding = performance.now();
  await timed('farmers (one INSERT … SELECT generate_series)', async () => {
    await db.execute(
      `insert into users (email, username, role, phone, password_hash, activated_at, district)
       select null, 'bench_farmer_' || i, 'farmer', '+2569' || lpad(i::text, 8, '0'), null, now(), ($1::text[])[1 + (i % $2)]
       from generate_series(1, $3::int) as i`,
      [codes, codes.length, FARMERS],
    );
    await db.execute(
      `insert into farmer_profiles (user_id, farm_location, farm_size, crop_types)
       select id, 'bench', 1, '{MAIZE}' from users where username like 'bench\\_farmer\\_%'`,
    );
  });
  const firstFarmer = Number(
    (await db.execute(`select min(id) as id from users where username like 'bench\\_farmer\\_%'`)).rows[0].id,
  );
  // Analyses: two years back from now, spread over farmers; deterministic by their number.
  await timed(`${ANALYSES} analyses (one INSERT … SELECT generate_series)`, () =>
    seedAnalyses(db, { firstFarmer, farmers: FARMERS, count: ANALYSES, days: 730 }),
  );
  await timed('expert verdicts on a fifth of the rust photos (one INSERT … SELECT)', () => seedVerdicts(db, expert.id));
  const { cases, counts } = await timed('recount (repair, full: cases, farmer-weeks, counts)', () =>
    recountAll(db.db, new Date(), outbreakSources),
  );
  // A steady-state database, as in service: right after the bulk load, autovacuum works through the
  // new rows, on a loaded machine for about a minute, and timings taken then measure it too.
  await timed('vacuum analyze', () => db.execute('vacuum analyze'));
  const seeded = (
    await db.execute(
      `select (select count(*) from analyses)::bigint as analyses, (select count(*) from expert_reviews)::bigint as verdicts`,
    )
  ).rows[0];
  atLeast(Number(seeded.analyses), ANALYSES, 'the analyses seeded');
  console.log(
    `seeded and counted in ${Math.round((performance.now() - seeding) / 1000)} s: ${seeded.analyses} analyses, ` +
      `${seeded.verdicts} verdicts, ${cases} cases, ${counts} counts; load average ${load()}`,
  );

  // Signed in after the filling, which can outlast an access token.
  const viewer = await createUser(t, 'farmer');
  const crops = ['maize', 'beans', 'other'] as const;
  const mapOf = (crop: string) =>
    t.app.inject({ method: 'GET', url: `${outbreakApi.map}?crop=${crop}`, headers: viewer.headers });
  for (let i = 0; i < 20; i++) await mapOf('maize');
  const mapTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    const res = await mapOf(crops[i % 3]);
    mapTimes.push(performance.now() - s);
    ensure(res.statusCode === 200, `the map served (answered ${res.statusCode}: ${res.body.slice(0, 200)})`);
  }

  // New confirmations: a verdict row, then record() as the review service calls it.
  const service = createOutbreakService(
    {
      db: db.db,
      clock: t.deps.clock,
      jobs: t.deps.jobs,
      delivery: testDelivery(t),
      lists: createListCaches(createMemoryCoordinator(), t.deps.clock),
    },
    outbreakSources,
  );
  const waiting = (
    await db.execute(
      `select a.id from analyses a where a.rust_class = 'common_rust' and not a.unsure
       and not exists (select 1 from expert_reviews r where r.analysis_id = a.id)
       and a.created_at > now() - interval '30 days' order by a.id limit $1`,
      [RUNS + 20],
    )
  ).rows.map((r) => Number(r.id));
  const confirmTimes: number[] = [];
  for (const [i, id] of waiting.entries()) {
    await db.execute(
      `insert into expert_reviews (analysis_id, reviewer_id, verdict, reviewed_at) values ($1, $2, 'common_rust', now())`,
      [id, expert.id],
    );
    const s = performance.now();
    await service.record(id);
    if (i >= 20) confirmTimes.push(performance.now() - s);
  }
  // The map's SQL and privacy rule without the cache (what every request costs right after a count change).
  const coldTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    const reply = await service.mapUncached(crops[i % 3], 14);
    coldTimes.push(performance.now() - s);
    ensure(Array.isArray(reply.districts), 'the uncached map answering');
  }
  // The open weekly feed, as anyone reads it: each request from an address of its own (the feed's limit is per
  // address), so what is timed is the feed, not the 429.
  let address = 0;
  const feed = (url: string) => {
    address += 1;
    return t.app.inject({
      method: 'GET',
      url,
      remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
    });
  };
  const feedTimes: Record<'csv' | 'geojson', number[]> = { csv: [], geojson: [] };
  for (let i = 0; i < RUNS + 5; i++) {
    for (const kind of ['csv', 'geojson'] as const) {
      const s = performance.now();
      const res = await feed(kind === 'csv' ? outbreakApi.openCsv : outbreakApi.openGeoJson);
      if (i >= 5) feedTimes[kind].push(performance.now() - s);
      ensure(
        res.statusCode === 200,
        `the open feed as ${kind} (answered ${res.statusCode}: ${res.body.slice(0, 200)})`,
      );
      if (i === 0) atLeast(res.body.length, 1, `the open feed's ${kind} bytes`);
    }
  }
  console.log(`load average after the timings ${load()}`);
  const alerts = Number((await db.execute('select count(*)::int as n from outbreak_alerts')).rows[0].n);
  const met = [
    report('map data uncached (service: SQL and privacy rule)', coldTimes, GOALS.map),
    report('map data as served (GET /api/outbreak/map/, per-process cache)', mapTimes, GOALS.map),
    report(`new confirmation -> counts + alert rule (${alerts} alerts open)`, confirmTimes, GOALS.confirmation),
  ].every(Boolean);
  report('open feed, CSV of 12 weeks (GET /api/open/outbreak/weekly.csv)', feedTimes.csv);
  report('open feed, GeoJSON of 12 weeks (GET /api/open/outbreak/weekly.geojson)', feedTimes.geojson);
  console.log(met ? 'every goal met' : 'a goal MISSED: look with BENCH_EXPLAIN=1');

  if (EXPLAIN) {
    const explain = async (label: string, statements: Statement[]) => {
      for (const [i, s] of reads(statements).entries()) {
        const { rows } = await db.execute(`explain (analyze, buffers) ${s.text}`, s.values);
        console.log(`\n-- ${label}, read ${i + 1}: ${s.text.replace(/\s+/g, ' ').slice(0, 300)}`);
        console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
    };
    await explain('the map uncached (maize)', (await recording(() => service.mapUncached('maize', 14))).statements);
    await explain('the open feed (CSV)', (await recording(() => feed(outbreakApi.openCsv))).statements);
  }
} finally {
  await t.close();
  pg.stop();
}
