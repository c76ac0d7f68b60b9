/**
 * An outbreak alert to a district's farmers through the outbox (npm run bench:fanout, docs/decisions/0050, 0130).
 *
 * On a temporary PostgreSQL server, with a local SMS gateway stub on loopback in a process of its own
 * (gateway-process.ts), as the real gateway is:
 * 1. The confirmation: an expert's verdict on a farmer's rust photo (PUT through app.inject), BENCH_RUNS
 *    times, with the gateway answering in BENCH_GATEWAY_MS (default 700 as in docs/decisions/0050): messages
 *    written to the outbox (now), and sent inside the request before it answers (as before the outbox;
 *    `sendAtOnce`). Prints p50 and p95 of each.
 * 2. The fan-out, three times, each an alert whose job writes every notification and outbox row in steps of
 *    FAN_OUT_STEP (INSERT … SELECT from the recipients' query), then every row sent to the stub answering at once:
 *    - the old sender, one request per message (the SMS adapter without its bulk send), to BENCH_OLD_FARMERS
 *      (default: as many as BENCH_FARMERS, at most 10,000: at ~1,200 a second a million takes a quarter of an
 *      hour; its rate is the figure) maize farmers of one district;
 *    - bulk (docs/decisions/0130, SMS_BULK_SIZE's default 1,000 numbers a request), one sender in this process,
 *      to BENCH_FARMERS (default 50,000; 1000000 for the national figure) maize farmers of another district;
 *    - bulk with two worker processes (fanout-worker.ts) sharing a second alert to those same farmers.
 *    Each sender claims 200 rows, 16 sends in flight, and up to BENCH_BULK_ROWS (default 4,000) rows of one text.
 *    Prints the times, rows per second, the stub's count of requests, recipients (each number once?) and SMS
 *    parts, the senders' peak RSS, side by side, and the targets (written ≤ 60 s, sent ≤ 60 s after, ≤ 1 GiB,
 *    ≤ one request per hundred messages).
 * It fails (bench/measured.ts) when a message was not sent, or was sent twice, or the bulk senders posted
 * more than one request per hundred messages: a rate of messages nobody sent is not a figure. Figures, not a
 * test: the machine's other load shows in them.
 */
import os from 'node:os';
import { reviewApi } from '../packages/contract/src/paths.ts';
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { createMemoryCoordinator } from '../apps/server/src/adapters/coordinator.ts';
import { createSms } from '../apps/server/src/adapters/sms.ts';
import { createDeliveryService } from '../apps/server/src/modules/delivery/delivery.service.ts';
import { createOutbreakService } from '../apps/server/src/modules/outbreak/outbreak.service.ts';
import { FAN_OUT_STEP } from '../apps/server/src/modules/outbreak/alert-delivery.ts';
import { createListCaches } from '../apps/server/src/lib/list-cache.ts';
import { createTestApp, type TestContext, withChannels } from '../apps/server/test/support/app.ts';
import { raiseMaizeAlert, seedDistrictFarmers } from '../apps/server/test/support/farmers.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { fixture } from '../apps/server/test/support/photos.ts';
import { atLeast, ensure, percentile } from './measured.ts';
import { forkGateway, forkWorker } from './fanout-processes.ts';
import { outbreakSources } from '../apps/server/src/ports.ts';

const FARMERS = Number(process.env.BENCH_FARMERS ?? 50_000);
const OLD_FARMERS = Number(process.env.BENCH_OLD_FARMERS ?? Math.min(FARMERS, 10_000));
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const GATEWAY_MS = Number(process.env.BENCH_GATEWAY_MS ?? 700);
// The bulk senders run on the sender's own defaults (lanes, a claim's rows of one text, claims at once:
// docs/decisions/0139) unless BENCH_CONCURRENCY, BENCH_BULK_ROWS or BENCH_PASSES say otherwise; the old
// sender on the settings it was measured with (bench/reports/0130-bulk-sms.md).
const SENDER = {
  ...(process.env.BENCH_CONCURRENCY && { concurrency: Number(process.env.BENCH_CONCURRENCY) }),
  ...(process.env.BENCH_BULK_ROWS && { bulkRows: Number(process.env.BENCH_BULK_ROWS) }),
  ...(process.env.BENCH_PASSES && { passes: Number(process.env.BENCH_PASSES) }),
};
const OLD_SENDER = { batch: 200, concurrency: 16, passes: 1 };
/** Worker processes claim one at a time, as docs/running.md has several workers set (DELIVERY_CLAIMS_AT_ONCE=1). */
const WORKER_SENDER = { ...SENDER, passes: Number(process.env.BENCH_WORKER_PASSES ?? 1) };
const WORKERS = 2;
/** The confirmations' district, the old sender's, and the bulk senders'. */
const DISTRICT = 'UG-304';
const OLD_DISTRICT = 'UG-305';
const BULK_DISTRICT = 'UG-306';

const ms = (x: number) => `${x.toFixed(1)} ms`;
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

const pg = await startTemporaryPostgres();
process.env.TEST_DATABASE_URL = pg.url;
const gateway = await forkGateway(GATEWAY_MS);
// The stub holds callers to Africa's Talking's request: the account's username and key, as in service.
const sms = createSms({
  gatewayUrl: gateway.url,
  apiKey: gateway.apiKey,
  username: gateway.username,
  senderId: 'KUTU',
});
ensure(FARMERS > 0 && OLD_FARMERS > 0, 'BENCH_FARMERS and BENCH_OLD_FARMERS above 0');
/** The old sender: the same adapter without its bulk send, so each message is a request of its own. */
const oneByOne = { send: sms.send };

/** RUNS verdicts on rust photos of one farmer of the district, timed through the API. */
async function confirmations(t: TestContext): Promise<number[]> {
  const expert = await createUser(t, 'expert');
  const farmer = await createUser(t, 'farmer');
  const db = t.deps.database;
  await db.execute('update users set district = $1 where id = $2', [DISTRICT, farmer.id]);
  const image = await t.deps.storage.put('analyses/bench', fixture('maize-common-rust.jpg'), 'jpg');
  const { rows } = await db.execute(
    `insert into analyses (user_id, image_path, outcome, rust_class, confidence, unsure, probabilities, model_version, crop, created_at)
     select $1, $3, 'diagnosis', 'common_rust', 0.9, false,
       jsonb_build_object('common_rust', 0.9, 'healthy', 0.05, 'other_disease', 0.05), 'v-bench', 'maize', now()
     from generate_series(1, $2::int) returning id`,
    [farmer.id, RUNS + 5, image],
  );
  const times: number[] = [];
  for (const [i, r] of rows.entries()) {
    const started = performance.now();
    const res = await t.app.inject({
      method: 'PUT',
      url: reviewApi.reviewPath(Number(r.id)),
      headers: expert.headers,
      payload: { verdict: 'common_rust', severity: 'low' },
    });
    if (res.statusCode !== 200) throw new Error(`verdict answered ${res.statusCode}: ${res.body}`);
    if (i >= 5) times.push(performance.now() - started);
  }
  return times;
}

const taken = gateway.taken;

interface Phase {
  label: string;
  farmers: number;
  written: number;
  writeMs: number;
  sent: number;
  sendMs: number;
  requests: number;
  recipients: number;
  distinct: number;
  twice: number;
  parts: number;
  /** Peak RSS of the sending process(es), KiB. */
  rss: number;
}

/**
 * One alert to `district`'s maize farmers (seeded by the caller): the fan-out written, then every row sent by
 * `send` (returns the senders' peak RSS); the stub's counts checked: each farmer's number taken once.
 */
async function fanOut(
  t: TestContext,
  label: string,
  district: string,
  farmers: number,
  send: (delivery: ReturnType<typeof createDeliveryService>) => Promise<number>,
  before?: () => Promise<void>,
): Promise<Phase> {
  const db = t.deps.database;
  const delivery = createDeliveryService(
    ...withChannels({
      db: db.db,
      clock: t.clock,
      sms,
      mailer: t.deps.mailer,
      coordinator: createMemoryCoordinator(),
      config: t.deps.config,
    }),
    SENDER,
  );
  const outbreak = createOutbreakService(
    {
      db: db.db,
      clock: t.clock,
      jobs: t.deps.jobs,
      delivery,
      lists: createListCaches(createMemoryCoordinator(), t.clock),
    },
    outbreakSources,
  );
  // One open alert a district and crop: the earlier one (an earlier phase's) ended.
  await db.execute('update outbreak_alerts set ended_at = now() where district = $1 and ended_at is null', [district]);
  const alertId = await raiseMaizeAlert(db, district);
  let started = performance.now();
  await outbreak.deliver(alertId);
  const writeMs = performance.now() - started;
  const count = async (state?: string) =>
    Number(
      (
        await db.execute(
          `select count(*)::int as n from deliveries where key like $1${state ? ' and state = $2' : ''}`,
          state ? [`outbreak:${alertId}|%`, state] : [`outbreak:${alertId}|%`],
        )
      ).rows[0].n,
    );
  const written = atLeast(await count(), farmers, `an outbox row for each of the ${farmers} farmers`);
  console.log(
    `${label}: ${written} SMS rows and notifications written in ${Math.round(writeMs)} ms (steps of ${FAN_OUT_STEP})`,
  );
  await db.execute('vacuum analyze deliveries');

  await gateway.setDelay(0);
  await gateway.reset();
  await before?.();
  started = performance.now();
  const rss = await send(delivery);
  const sendMs = performance.now() - started;
  const sent = await count('sent');
  const c = await gateway.counts();
  console.log(
    `${label}: ${sent} of ${written} rows sent in ${Math.round(sendMs)} ms, ${Math.round((sent / sendMs) * 1000)} per second; ` +
      `the stub got ${c.requests} requests for ${c.recipients} recipients, took ${c.distinct} numbers (${c.twice} more than once), ${c.parts} SMS parts`,
  );
  atLeast(sent, written, `${label}: every row of the alert sent`);
  atLeast(c.distinct, written, `${label}: the gateway taking every farmer's number`);
  ensure(c.twice === 0 && c.taken === c.distinct, `${label}: no number taken twice (${c.twice} were)`);
  return { label, farmers, written, writeMs, sent, sendMs, ...c, rss };
}

/** Sends every due row in this process. */
async function inThisProcess(delivery: ReturnType<typeof createDeliveryService>) {
  while ((await delivery.sendDue()) > 0);
  return process.resourceUsage().maxRSS;
}

const outboxApp = await createTestApp({ sms, deliveryOptions: { sendAtOnce: false } });
const inlineApp = await createTestApp({ sms, deliveryOptions: { sendAtOnce: true } });
try {
  const outboxTimes = await confirmations(outboxApp);
  const before = await taken();
  const inlineTimes = await confirmations(inlineApp);
  // Sent inside each request: the gateway took each verdict's SMS, or the timings measure a refusal.
  atLeast((await taken()) - before, RUNS + 5, "the gateway taking each verdict's SMS sent in the request");
  await inlineApp.close();
  const p = (xs: number[], n: number, what: string) => ms(percentile(xs, n, what));

  console.log(`confirmation (expert verdict through the API, gateway answering in ${GATEWAY_MS} ms, ${RUNS} runs):`);
  console.log(
    `  outbox (now):              p50 ${p(outboxTimes, 50, 'verdicts written to the outbox')}, p95 ${p(outboxTimes, 95, 'verdicts written to the outbox')}`,
  );
  console.log(
    `  sent in the request (was): p50 ${p(inlineTimes, 50, 'verdicts sent in the request')}, p95 ${p(inlineTimes, 95, 'verdicts sent in the request')}`,
  );

  const phases: Phase[] = [];
  let workers: Awaited<ReturnType<typeof forkWorker>>[] = [];
  const started = performance.now();
  await seedDistrictFarmers(outboxApp.deps.database, OLD_DISTRICT, OLD_FARMERS, 3);
  await seedDistrictFarmers(outboxApp.deps.database, BULK_DISTRICT, FARMERS, 4);
  await outboxApp.deps.database.execute('vacuum analyze');
  console.log(`seeded ${OLD_FARMERS + FARMERS} maize farmers in ${Math.round(performance.now() - started)} ms`);
  // The old sender: the same outbox and worker, one request per message.
  const oldSender = createDeliveryService(
    ...withChannels({
      db: outboxApp.deps.database.db,
      clock: outboxApp.clock,
      sms: oneByOne,
      mailer: outboxApp.deps.mailer,
      coordinator: createMemoryCoordinator(),
      config: outboxApp.deps.config,
    }),
    OLD_SENDER,
  );
  phases.push(
    await fanOut(outboxApp, 'one request a message (was)', OLD_DISTRICT, OLD_FARMERS, () => inThisProcess(oldSender)),
  );
  phases.push(await fanOut(outboxApp, 'bulk, this process', BULK_DISTRICT, FARMERS, inThisProcess));
  phases.push(
    await fanOut(
      outboxApp,
      `bulk, ${WORKERS} worker processes`,
      BULK_DISTRICT,
      FARMERS,
      async () => {
        const done = await Promise.all(workers.map((w) => w.go()));
        console.log(`  the workers handled ${done.map((d) => d.handled).join(' and ')} rows`);
        return Math.max(...done.map((d) => d.rss));
      },
      async () => {
        // The test app's own database on the temporary server; the processes started before the clock runs.
        const { rows } = await outboxApp.deps.database.execute('select current_database() as name');
        const url = new URL(pg.url);
        url.pathname = `/${rows[0].name}`;
        workers = await Promise.all(
          Array.from({ length: WORKERS }, () => forkWorker(url.toString(), gateway, WORKER_SENDER)),
        );
      },
    ),
  );
  for (const p of phases.slice(1)) {
    ensure(p.requests * 100 <= p.written, `${p.label}: at most one request per hundred messages (${p.requests})`);
  }
  const row = (label: string, cell: (p: Phase) => string) =>
    console.log(`  ${label.padEnd(24)}${phases.map((p) => cell(p).padStart(30)).join('')}`);
  console.log('\nside by side:');
  row('', (p) => p.label);
  row('farmers told', (p) => String(p.written));
  row('written in', (p) => `${(p.writeMs / 1000).toFixed(1)} s`);
  row('sent in', (p) => `${(p.sendMs / 1000).toFixed(1)} s`);
  row('sent per second', (p) => String(Math.round((p.sent / p.sendMs) * 1000)));
  row('requests', (p) => String(p.requests));
  row('messages per request', (p) => (p.recipients / p.requests).toFixed(1));
  row('numbers taken (twice)', (p) => `${p.distinct} (${p.twice})`);
  row('SMS parts', (p) => String(p.parts));
  row('peak RSS of the sender', (p) => mib(p.rss));
  const bulk = phases.slice(1);
  const within = (ok: boolean) => (ok ? 'yes' : 'NO');
  console.log(
    `\ntargets at ${FARMERS} farmers: written ≤ 60 s ${within(bulk.every((p) => p.writeMs <= 60_000))}, ` +
      `sent ≤ 60 s after ${within(bulk.every((p) => p.sendMs <= 60_000))}, peak RSS ≤ 1 GiB ${within(bulk.every((p) => p.rss <= 1024 * 1024))}`,
  );
  console.log(
    `machine: ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await outboxApp.close();
  await gateway.close();
  pg.stop();
}
