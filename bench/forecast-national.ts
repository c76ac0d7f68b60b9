/**
 * The forecast's advisories at national size (npm run bench:forecast-national; docs/decisions/0100, 0128, 0130).
 *
 * On a temporary PostgreSQL server, with the SMS gateway stub in a process of its own (gateway-process.ts) and a
 * local Open-Meteo stand-in: BENCH_FARMERS (default 1,000,000) farmers over every district and county, in English,
 * Kiswahili and Luganda, filled set-based (one INSERT … SELECT over generate_series a table): four in five with a
 * maize field in their district, every tenth of those a second maize field in another district (told once a
 * week per crop all the same), one in five a bean field only; maize rust confirmed this week in two districts in
 * three. The clock at Tuesday 06:00 East Africa Time, before
 * the send hour: one forecast run (POST /api/forecast/run/) over the stand-in, whose cool wet nights at three
 * places in four turn many districts' maize high, prepares the advisories; then a national officer's "send now"
 * (POST /api/forecast/advisories/send/) writes them, one statement a district and crop, two at once (the recipients' query
 * inside the outbox's INSERT … SELECT: SMS rows and in-app notices). Then BENCH_WORKERS (default 2) delivery
 * worker processes (fanout-worker.ts) hand every SMS row to the stub in bulk (SMS_BULK_SIZE numbers a request).
 * Prints the rows written and their time, the time to hand every message to the stub, its requests, recipients
 * (each number once?) and SMS parts, the in-app notices, the peak RSS of this process and of the senders, and
 * the recipients' statements counted at the driver (bench/pg-queries.ts) against the district and crop pairs;
 * each against its goal (written ≤ 60 s, sent ≤ 60 s after, peak RSS ≤ 1 GiB, ≤ one request per hundred
 * messages). Exits non-zero (bench/measured.ts) when a farmer due a message was not sent it, or was sent it
 * twice, or one not due was. BENCH_EXPLAIN=1 prints the slowest recipients' statement under EXPLAIN (ANALYZE, BUFFERS)
 * (replayed in a transaction rolled back); BENCH_JIT=off turns PostgreSQL's JIT off on the server first. Figures, not a test: the machine's other load shows in them.
 */
import os from 'node:os';
import pg from 'pg';
import { districts } from '../packages/contract/src/districts.ts';
import { SMALL_COUNT_MIN } from '../packages/contract/src/outbreak-paths.ts';
import { forecastApi } from '../packages/contract/src/forecast-paths.ts';
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { weekStartOf } from '../apps/server/src/lib/iso-weeks.ts';
import { createTestApp } from '../apps/server/test/support/app.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { atLeast, ensure } from './measured.ts';
import { forkGateway, forkWorker } from './fanout-processes.ts';
import { recording } from './pg-queries.ts';
import { startWeatherStandIn } from './weather-stand-in.ts';

const FARMERS = atLeast(Number(process.env.BENCH_FARMERS ?? 1_000_000), 10, 'farmers (BENCH_FARMERS)');
const WORKERS = atLeast(Number(process.env.BENCH_WORKERS ?? 2), 1, 'worker processes (BENCH_WORKERS)');
// As bench/fanout.ts's worker processes: the sender's own defaults, one claim at a time as docs/running.md
// has several workers set (DELIVERY_CLAIMS_AT_ONCE=1), unless BENCH_CONCURRENCY, BENCH_BULK_ROWS or
// BENCH_PASSES say otherwise.
const SENDER = {
  ...(process.env.BENCH_CONCURRENCY && { concurrency: Number(process.env.BENCH_CONCURRENCY) }),
  ...(process.env.BENCH_BULK_ROWS && { bulkRows: Number(process.env.BENCH_BULK_ROWS) }),
  passes: Number(process.env.BENCH_PASSES ?? 1),
};
const GOALS = { writeMs: 60_000, sendMs: 60_000, rssKiB: 1024 * 1024 };
/** Tuesday 06:00 East Africa Time: before the send hour (10:00), in the Open-Meteo fixtures' week. */
const NOW = new Date('2026-12-01T03:00:00Z');

const s = (x: number) => `${(x / 1000).toFixed(1)} s`;
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;
const yes = (ok: boolean) => (ok ? 'met' : 'MISSED');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
async function timed<T>(label: string, fn: () => Promise<T>): Promise<{ out: T; ms: number }> {
  const started = performance.now();
  const out = await fn();
  const ms = performance.now() - started;
  console.log(`${label}: ${Math.round(ms)} ms`);
  return { out, ms };
}

// Open-Meteo's replies for many places at once: cool wet nights at three places in four, hot and dry elsewhere.
const weather = await startWeatherStandIn(
  (lat, lng) => (Math.abs(Math.round(lat * 1000 + lng * 1000)) % 4 === 0 ? 'dry' : 'wet'),
  { connection: 'close' },
);

const pgServer = await startTemporaryPostgres();
process.env.TEST_DATABASE_URL = pgServer.url;
const gateway = await forkGateway(0);
const t = await createTestApp({
  env: { WEATHER_URL: weather.url },
  // The advisories wait in the outbox for the worker processes, as in service.
  deliveryOptions: { sendAtOnce: false },
});
try {
  const db = t.deps.database;
  const codes = districts.map((d) => d.code);
  console.log(`${FARMERS} farmers over ${codes.length} districts and counties, on PostgreSQL`);
  await timed('farmers and fields (one INSERT … SELECT generate_series each)', async () => {
    await db.execute(
      `insert into users (username, role, phone, language, district, activated_at, phone_verified_at)
       select 'fn_' || g, 'farmer', '+2567' || lpad(g::text, 8, '0'), (array['en', 'sw', 'lg'])[1 + g % 3],
         ($1::text[])[1 + (g * 7) % $2], now(), now()
       from generate_series(1, $3::int) g`,
      [codes, codes.length, FARMERS],
    );
    // Four in five grow maize in their district, one in five beans; every tenth maize farmer has a second maize
    // field in the next district of the list.
    await db.execute(
      `insert into fields (user_id, name, crop, number, district, created_at, updated_at)
       select id, 'Field', case when id % 5 = 0 then 'beans' else 'maize' end, 1, district, now() - interval '30 days', now()
       from users where username like 'fn\\_%'`,
    );
    await db.execute(
      `insert into fields (user_id, name, crop, number, district, created_at, updated_at)
       select u.id, 'Field 2', 'maize', 2, ($1::text[])[1 + (array_position($1::text[], u.district) % $2)],
         now() - interval '30 days', now()
       from users u where u.username like 'fn\\_%' and u.id % 5 <> 0 and u.id % 10 = 1`,
      [codes, codes.length],
    );
  });
  // Rust confirmed this week in two districts in three (SMALL_COUNT_MIN farmer-weeks of maize each): a high day
  // needs rust near as well as the weather (docs/decisions/0100).
  await db.execute(
    `insert into outbreak_counts (district, crop, week_start, demo, confirmed)
     select code, 'maize', $2::date, false, $3 from unnest($1::text[]) with ordinality as d(code, i) where i % 3 <> 0`,
    [codes, weekStartOf(NOW), SMALL_COUNT_MIN],
  );
  await timed('vacuum analyze', () => db.execute('vacuum analyze'));
  if (process.env.BENCH_JIT === 'off') {
    // PostgreSQL's JIT (on by default) compiles each recipients' statement: off, to see what it costs.
    await db.execute('alter system set jit = off');
    await db.execute('select pg_reload_conf()');
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(`PostgreSQL's jit: ${(await db.execute('show jit')).rows[0].jit}`);

  t.clock.set(NOW);
  const admin = await createUser(t, 'admin');
  const run = await timed('one forecast run (weather at every point, risks; the advisories prepared)', () =>
    t.app.inject({ method: 'POST', url: forecastApi.run, headers: admin.headers }),
  );
  ensure(
    run.out.statusCode === 200,
    `the forecast run (answered ${run.out.statusCode}: ${run.out.body.slice(0, 200)})`,
  );
  const before = Number(
    (await db.execute(`select count(*)::int as n from deliveries where key like 'rust-advisory:%'`)).rows[0].n,
  );
  ensure(before === 0, `nothing sent before the send hour or "send now" (${before} rows were written)`);

  // The send: "send now", as a national officer or administrator does after reading the week's advisories.
  const rssBefore = process.resourceUsage().maxRSS;
  const send = await timed('"send now": the advisories written (SMS rows and in-app notices)', () =>
    recording(() => t.app.inject({ method: 'POST', url: forecastApi.sendNow, headers: admin.headers })),
  );
  const { result: sent, statements } = send.out;
  ensure(sent.statusCode === 200, `"send now" (answered ${sent.statusCode}: ${sent.body.slice(0, 200)})`);
  const pairs = atLeast((sent.json() as { told: number }).told, 1, 'district and crop pairs told');
  const writerRss = process.resourceUsage().maxRSS;
  // The recipients' query (forecast.repo.ts's `recipients`, its farmers through fields' hasLiveFieldSql) runs
  // inside the outbox's INSERT … SELECT (delivery.repo.ts's `addForEach`): the statements that carry it, counted
  // at the driver.
  const recipientStatements = statements.filter(
    (q) => q.text.includes('with people as materialized') && q.text.includes('"fields"."district"'),
  );

  const week = weekStartOf(NOW);
  const one = async (text: string, values: unknown[] = []) => Number((await db.execute(text, values)).rows[0].n);
  const due = await one(
    `select count(distinct f.user_id)::int as n from fields f
     join forecast_advisories a on a.district = f.district and a.crop = f.crop and a.week_start = $1
     join users u on u.id = f.user_id and u.role = 'farmer'
     where f.retired_at is null`,
    [week],
  );
  const highDistricts = await one(
    `select count(distinct district)::int as n from forecast_advisories where week_start = $1`,
    [week],
  );
  const written = await one(`select count(*)::int as n from deliveries where key like 'rust-advisory:%'`);
  const notices = await one(`select count(*)::int as n from notifications where type = 'rust_advisory'`);
  console.log(
    `  ${pairs} district and crop pairs high (${highDistricts} districts): ${written} SMS rows and ${notices} in-app notices ` +
      `written for ${due} farmers due one; ${recipientStatements.length} recipients' statements (${statements.length} statements in all)`,
  );
  const spent = (xs: { ms?: number }[]) => Math.round(xs.reduce((a, q) => a + (q.ms ?? 0), 0));
  console.log(
    `  time in the database: ${spent(recipientStatements)} ms in the recipients' statements (the slowest ` +
      `${Math.round(Math.max(...recipientStatements.map((q) => q.ms ?? 0)))} ms), ${spent(statements)} ms in all`,
  );
  atLeast(due, 1, 'farmers due an advisory');
  ensure(written === due, `an SMS row for each farmer due one, once (${written} rows for ${due} farmers)`);
  ensure(notices === due, `an in-app notice for each farmer due one, once (${notices} for ${due} farmers)`);
  ensure(
    recipientStatements.length === pairs,
    `one recipients' statement a district and crop (${recipientStatements.length} for ${pairs})`,
  );
  if (process.env.BENCH_EXPLAIN === '1') {
    // The slowest recipients' statement again under EXPLAIN (ANALYZE, BUFFERS), in a transaction rolled back.
    const slowest = recipientStatements.reduce((a, q) => ((q.ms ?? 0) > (a.ms ?? 0) ? q : a));
    const { rows } = await db.execute('select current_database() as name');
    const client = new pg.Client({
      connectionString: Object.assign(new URL(pgServer.url), { pathname: `/${rows[0].name}` }).toString(),
    });
    await client.connect();
    await client.query('begin');
    const plan = await client.query(`explain (analyze, buffers) ${slowest.text}`, slowest.values);
    await client.query('rollback');
    await client.end();
    console.log(`\n-- the slowest recipients' statement (${Math.round(slowest.ms ?? 0)} ms):\n${slowest.text}`);
    console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  await db.execute('vacuum analyze deliveries');

  // The send to the gateway: worker processes started before the clock runs, on the app's own database, their
  // clocks at the bench's (the rows are due at it).
  await gateway.reset();
  const { rows } = await db.execute('select current_database() as name');
  const url = new URL(pgServer.url);
  url.pathname = `/${rows[0].name}`;
  const offset = NOW.getTime() - Date.now() + 1_000;
  const workers = await Promise.all(
    Array.from({ length: WORKERS }, () => forkWorker(url.toString(), gateway, SENDER, offset)),
  );
  const handed = await timed(`every SMS handed to the stub (${WORKERS} worker processes, bulk)`, () =>
    Promise.all(workers.map((w) => w.go())),
  );
  const senderRss = Math.max(...handed.out.map((d) => d.rss));
  const delivered = await one(
    `select count(*)::int as n from deliveries where key like 'rust-advisory:%' and state = 'sent'`,
  );
  const c = await gateway.counts();
  // Farmers not due one (beans only, no high district) must not be among the numbers the stub took.
  console.log(
    `  the workers handled ${handed.out.map((d) => d.handled).join(' and ')} rows; ${delivered} of ${written} sent; ` +
      `the stub got ${c.requests} requests for ${c.recipients} recipients, took ${c.distinct} numbers (${c.twice} more than once), ${c.parts} SMS parts`,
  );
  ensure(delivered === written, `every advisory sent (${delivered} of ${written})`);
  ensure(c.twice === 0 && c.taken === c.distinct, `no number taken twice (${c.twice} were)`);
  ensure(c.distinct === due, `the gateway taking each farmer due one, and no other (${c.distinct} for ${due})`);
  ensure(c.requests * 100 <= written, `at most one request per hundred messages (${c.requests} for ${written})`);

  console.log(`\nat ${FARMERS} farmers (${due} told, in ${highDistricts} high districts):`);
  console.log(`  outbox rows and notices written in ${s(send.ms)} (goal ≤ 60 s: ${yes(send.ms <= GOALS.writeMs)})`);
  console.log(
    `  every message handed to the stub ${s(handed.ms)} after (goal ≤ 60 s: ${yes(handed.ms <= GOALS.sendMs)}), ` +
      `${Math.round((written / handed.ms) * 1000)} a second`,
  );
  console.log(
    `  requests ${c.requests}, ${(c.recipients / c.requests).toFixed(0)} messages each (goal ≤ one per hundred: met); ` +
      `recipients ${c.recipients}, each once; SMS parts ${c.parts}`,
  );
  console.log(`  in-app notices ${notices}`);
  console.log(
    `  peak RSS: this process (app, writing) ${mib(writerRss)} (${mib(rssBefore)} before the send), ` +
      `senders ${mib(senderRss)} (goal ≤ 1 GiB: ${yes(Math.max(writerRss, senderRss) <= GOALS.rssKiB)})`,
  );
  console.log(
    `  recipients' statements: ${recipientStatements.length} for ${pairs} district and crop pairs (one each)`,
  );
  console.log(`machine: ${os.cpus().length} CPUs, load average ${load()}`);
} finally {
  await t.close();
  await gateway.close();
  pgServer.stop();
  weather.close();
}
