/**
 * An outbreak alert to a district's farmers through the outbox (npm run bench:fanout, docs/decisions/0050).
 *
 * On a temporary PostgreSQL server, with a local SMS gateway stub on loopback:
 * 1. The confirmation: an expert's verdict on a farmer's rust photo (PUT through app.inject), BENCH_RUNS
 *    times, with the gateway answering in BENCH_GATEWAY_MS (default 700 as in docs/decisions/0050): messages
 *    written to the outbox (now), and sent inside the request before it answers (as before the outbox;
 *    `sendAtOnce`). Prints p50 and p95 of each.
 * 2. The fan-out: BENCH_FARMERS (default 20,000) maize farmers of one district, an alert raised for it;
 *    the alert job writes every notification and outbox row in steps of 500, then one sender (batch 200,
 *    16 sends in flight) sends every row to the stub answering at once. Prints both times, rows per
 *    second and this process's peak RSS (the app, PostgreSQL client and the stub, which keeps each post).
 * Figures, not a test: the machine's other load shows in them.
 */
import os from 'node:os';
import { reviewApi } from '../packages/contract/src/paths.ts';
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { createMemoryCoordinator } from '../apps/server/src/adapters/coordinator.ts';
import { createSms } from '../apps/server/src/adapters/sms.ts';
import { createDeliveryService } from '../apps/server/src/modules/delivery/delivery.service.ts';
import { createOutbreakService } from '../apps/server/src/modules/outbreak/outbreak.service.ts';
import { createListCaches } from '../apps/server/src/lib/list-cache.ts';
import { createTestApp, type TestContext } from '../apps/server/test/support/app.ts';
import { raiseMaizeAlert, seedDistrictFarmers } from '../apps/server/test/support/farmers.ts';
import { startSmsGateway } from '../apps/server/test/support/sms-gateway.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { fixture } from '../apps/server/test/support/photos.ts';

const FARMERS = Number(process.env.BENCH_FARMERS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const GATEWAY_MS = Number(process.env.BENCH_GATEWAY_MS ?? 700);
const DISTRICT = 'UG-304';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

const pg = await startTemporaryPostgres();
process.env.TEST_DATABASE_URL = pg.url;
const gatewayOpts = { delayMs: GATEWAY_MS };
const gateway = await startSmsGateway(gatewayOpts);
const sms = createSms({ gatewayUrl: gateway.url, senderId: 'KUTU' });

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

const outboxApp = await createTestApp({ sms, deliveryOptions: { sendAtOnce: false } });
const inlineApp = await createTestApp({ sms, deliveryOptions: { sendAtOnce: true } });
try {
  const outboxTimes = await confirmations(outboxApp);
  const inlineTimes = await confirmations(inlineApp);
  await inlineApp.close();
  console.log(`confirmation (expert verdict through the API, gateway answering in ${GATEWAY_MS} ms, ${RUNS} runs):`);
  console.log(`  outbox (now):              p50 ${ms(pct(outboxTimes, 50))}, p95 ${ms(pct(outboxTimes, 95))}`);
  console.log(`  sent in the request (was): p50 ${ms(pct(inlineTimes, 50))}, p95 ${ms(pct(inlineTimes, 95))}`);

  const t = outboxApp;
  const db = t.deps.database;
  let started = performance.now();
  await seedDistrictFarmers(db, DISTRICT, FARMERS, 3);
  await db.execute('vacuum analyze');
  console.log(`seeded ${FARMERS} maize farmers of ${DISTRICT} in ${Math.round(performance.now() - started)} ms`);
  const rssBefore = process.resourceUsage().maxRSS;

  const delivery = createDeliveryService(
    {
      db: db.db,
      clock: t.clock,
      sms,
      mailer: t.deps.mailer,
      coordinator: createMemoryCoordinator(),
      config: t.deps.config,
    },
    { batch: 200, concurrency: 16 },
  );
  const outbreak = createOutbreakService({
    db: db.db,
    clock: t.clock,
    jobs: t.deps.jobs,
    delivery,
    lists: createListCaches(createMemoryCoordinator(), t.clock),
  });
  const alertId = await raiseMaizeAlert(db, DISTRICT);
  started = performance.now();
  await outbreak.deliver(alertId);
  const fanOutMs = performance.now() - started;
  const { rows } = await db.execute(`select count(*)::int as n from deliveries where key like $1`, [
    `outbreak:${alertId}|%`,
  ]);
  const written = Number(rows[0].n);
  console.log(`fan-out: ${written} SMS rows and notifications written in ${Math.round(fanOutMs)} ms (steps of 500)`);

  gatewayOpts.delayMs = 0;
  const postsBefore = gateway.posts.length;
  started = performance.now();
  let handled = 0;
  for (;;) {
    const n = await delivery.sendDue();
    handled += n;
    if (n === 0) break;
  }
  const sendMs = performance.now() - started;
  const sent = Number(
    (
      await db.execute(`select count(*)::int as n from deliveries where key like $1 and state = 'sent'`, [
        `outbreak:${alertId}|%`,
      ])
    ).rows[0].n,
  );
  console.log(
    `send: ${sent} of ${written} rows sent (${gateway.posts.length - postsBefore} posts) in ${Math.round(sendMs)} ms, ${Math.round((sent / sendMs) * 1000)} per second`,
  );
  const rssPeak = process.resourceUsage().maxRSS;
  console.log(`peak RSS: ${mib(rssBefore)} before the fan-out, ${mib(rssPeak)} after sending (handled ${handled})`);
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
