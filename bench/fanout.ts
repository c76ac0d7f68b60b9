/**
 * An outbreak alert to a district's farmers through the outbox (npm run bench:fanout, docs/decisions/0050).
 *
 * On a temporary PostgreSQL server, with a local SMS gateway stub on loopback in a process of its own
 * (gateway-process.ts), as the real gateway is:
 * 1. The confirmation: an expert's verdict on a farmer's rust photo (PUT through app.inject), BENCH_RUNS
 *    times, with the gateway answering in BENCH_GATEWAY_MS (default 700 as in docs/decisions/0050): messages
 *    written to the outbox (now), and sent inside the request before it answers (as before the outbox;
 *    `sendAtOnce`). Prints p50 and p95 of each.
 * 2. The fan-out, once per size in BENCH_FARMERS (default `20000,100000`), one after the other in the same
 *    database (the outbox keeps the earlier rows, as in service): that many maize farmers of a district,
 *    an alert raised for it; the alert job writes every notification and outbox row in steps of FAN_OUT_STEP
 *    (INSERT … SELECT from the recipients' query), then
 *    one sender (batch 200, 16 sends in flight) sends every row to the stub answering at once. Prints
 *    both times, rows per second and this process's peak RSS (the app and the PostgreSQL client),
 *    then the sizes side by side.
 * It fails (bench/measured.ts) when the gateway took fewer posts than there were messages: a rate of
 * messages nobody sent is not a figure. Figures, not a test: the machine's other load shows in them.
 */
import { fork } from 'node:child_process';
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
import { outbreakSources } from '../apps/server/src/ports.ts';

const SIZES = (process.env.BENCH_FARMERS ?? '20000,100000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const GATEWAY_MS = Number(process.env.BENCH_GATEWAY_MS ?? 700);
/** The confirmations' district, then one district per fan-out size. */
const DISTRICTS = ['UG-304', 'UG-305', 'UG-306', 'UG-307'];
const DISTRICT = DISTRICTS[0]!;

const ms = (x: number) => `${x.toFixed(1)} ms`;
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

/**
 * The gateway stub in a process of its own (gateway-process.ts), as the real gateway is: one question at a time
 * over IPC, each answered once.
 */
async function forkGateway(delayMs: number) {
  const child = fork(new URL('./gateway-process.ts', import.meta.url), [], {
    env: { ...process.env, GATEWAY_DELAY_MS: String(delayMs) },
  });
  const answer = <T>() =>
    new Promise<T>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the gateway stub exited (${code})`));
      child.once('exit', exited);
      child.once('message', (m) => {
        child.off('exit', exited);
        resolve(m as T);
      });
    });
  const ask = <T>(question: object) => {
    const answered = answer<T>();
    child.send(question);
    return answered;
  };
  const listening = await answer<{ url: string; username: string; apiKey: string }>();
  return {
    ...listening,
    setDelay: (ms: number) => ask({ delayMs: ms }),
    /** The posts it took (sent), for all numbers. */
    taken: async () => (await ask<{ taken: number }>({ taken: true })).taken,
    close: () => new Promise((resolve) => child.once('exit', resolve).send({ close: true })),
  };
}

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
ensure(
  SIZES.length > 0 && SIZES.length < DISTRICTS.length && SIZES.every((n) => n > 0),
  'BENCH_FARMERS naming 1 to 3 sizes',
);

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

interface Size {
  farmers: number;
  written: number;
  writeMs: number;
  sent: number;
  sendMs: number;
  rss: number;
}

/** One alert to `farmers` new maize farmers of `district`: the fan-out, then every row sent. */
async function fanOut(t: TestContext, district: string, farmers: number, series: number): Promise<Size> {
  const db = t.deps.database;
  let started = performance.now();
  await seedDistrictFarmers(db, district, farmers, series);
  await db.execute('vacuum analyze');
  console.log(`seeded ${farmers} maize farmers of ${district} in ${Math.round(performance.now() - started)} ms`);
  const rssBefore = process.resourceUsage().maxRSS;
  const delivery = createDeliveryService(
    ...withChannels({
      db: db.db,
      clock: t.clock,
      sms,
      mailer: t.deps.mailer,
      coordinator: createMemoryCoordinator(),
      config: t.deps.config,
    }),
    { batch: 200, concurrency: 16 },
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
  const alertId = await raiseMaizeAlert(db, district);
  started = performance.now();
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
    `fan-out: ${written} SMS rows and notifications written in ${Math.round(writeMs)} ms (steps of ${FAN_OUT_STEP}, written by the database)`,
  );

  await gateway.setDelay(0);
  const postsBefore = await taken();
  started = performance.now();
  let handled = 0;
  for (;;) {
    const n = await delivery.sendDue();
    handled += n;
    if (n === 0) break;
  }
  const sendMs = performance.now() - started;
  const sent = await count('sent');
  const posts = (await taken()) - postsBefore;
  console.log(
    `send: ${sent} of ${written} rows sent (${posts} posts taken) in ${Math.round(sendMs)} ms, ${Math.round((sent / sendMs) * 1000)} per second`,
  );
  atLeast(sent, written, 'every row of the alert sent');
  atLeast(posts, written, 'a post taken by the gateway for every row');
  const rss = process.resourceUsage().maxRSS;
  console.log(`peak RSS: ${mib(rssBefore)} before the fan-out, ${mib(rss)} after sending (handled ${handled})`);
  return { farmers, written, writeMs, sent, sendMs, rss };
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

  const sizes: Size[] = [];
  for (const [i, farmers] of SIZES.entries()) sizes.push(await fanOut(outboxApp, DISTRICTS[i + 1]!, farmers, 3 + i));
  const col = (s: Size, text: string) => text.padStart(Math.max(14, String(s.farmers).length + 9));
  const row = (label: string, cell: (s: Size) => string) =>
    console.log(`  ${label.padEnd(26)}${sizes.map((s) => col(s, cell(s))).join('')}`);
  console.log("\nside by side (the outbox holds the earlier sizes' rows too):");
  row('farmers told', (s) => String(s.written));
  row('written in', (s) => `${(s.writeMs / 1000).toFixed(1)} s`);
  row('written per second', (s) => String(Math.round((s.written / s.writeMs) * 1000)));
  row('sent in', (s) => `${(s.sendMs / 1000).toFixed(1)} s`);
  row('sent per second', (s) => String(Math.round((s.sent / s.sendMs) * 1000)));
  row('peak RSS after', (s) => mib(s.rss));
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
