import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTemporaryPostgres } from '../../../../scripts/postgres.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { shortestLeaseSeconds } from '../../src/lib/delivery-lease.ts';
import { raiseMaizeAlert, seedDistrictFarmers } from '../support/farmers.ts';
import { type SmsGateway, startSmsGateway } from '../support/sms-gateway.ts';
import { eventually, type Proc, startProcess, stopProcess, waitReady } from '../support/processes.ts';

const PEOPLE = 2_000;
const DISTRICT = 'UG-304';
const PORTS = { a: 8411, b: 8412, c: 8413 };
/** A local stub answers in milliseconds: a short timeout gives a short lease (config.ts derives it), so the test stays quick. */
const GATEWAY_TIMEOUT_SECONDS = 1;
const LEASE_SECONDS = shortestLeaseSeconds(GATEWAY_TIMEOUT_SECONDS * 1000);
/** Numbers in one bulk request (docs/decisions/0130): small, so that the kill comes with batches still to send. */
const BULK_SIZE = 50;
/** A worker's sends in flight (DELIVERY_SENDS_IN_FLIGHT): the requests a kill may leave to be posted again. */
const SENDS_IN_FLIGHT = 2;

/**
 * The outbox across processes (docs/decisions/0050), on PostgreSQL: two `npm run worker` processes send
 * an alert to 2,000 farmers through a local gateway stub; one is killed (SIGKILL) half-way and a new one
 * starts. The alert's SMS go in bulk requests of BULK_SIZE numbers. Every farmer ends with one in-app
 * notification and one SMS, and no message is sent by two living workers; what the killed worker had in flight
 * is posted again only when its post reached the gateway before its mark of it did (docs/decisions/0130).
 */
describe('delivery workers: a kill -9 half-way through an alert', () => {
  let pg: { url: string; stop: () => Promise<void> };
  let database: Database;
  let gateway: SmsGateway;
  let tmp: string;
  const procs: Proc[] = [];

  beforeAll(async () => {
    pg = await startTemporaryPostgres();
    database = await openDatabase({ url: pg.url });
    await database.migrate();
    gateway = await startSmsGateway({ delayMs: 25 });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-delivery-'));
    await seedDistrictFarmers(database, DISTRICT, PEOPLE, 1);
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => stopProcess(p, 'SIGKILL')));
    await database?.close();
    await gateway?.close();
    await pg?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const worker = (name: string, port: number) => {
    const p = startProcess(name, 'apps/server/src/worker.ts', port, {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: pg.url,
      DATA_DIR: path.join(tmp, name),
      WEB_DIST: path.join(tmp, 'no-web'),
      SMS_GATEWAY_URL: gateway.url,
      SMS_GATEWAY_KEY: gateway.apiKey,
      SMS_GATEWAY_USERNAME: gateway.username,
      SMS_TRANSPORT: 'gateway',
      SMS_GATEWAY_TIMEOUT_SECONDS: String(GATEWAY_TIMEOUT_SECONDS),
      SMS_BULK_SIZE: String(BULK_SIZE),
      DELIVERY_SENDS_IN_FLIGHT: String(SENDS_IN_FLIGHT),
    });
    procs.push(p);
    return p;
  };
  const count = async (query: string) => Number((await database.execute(query)).rows[0].n);

  it('leaves every farmer one notification and one SMS; only a killed worker’s sends in flight are posted again', async () => {
    // Raised as the alert rule raises it, its fan-out not run: each worker queues it when it starts.
    await raiseMaizeAlert(database, DISTRICT);
    const [a, b] = [worker('worker-a', PORTS.a), worker('worker-b', PORTS.b)];
    await Promise.all([waitReady(a), waitReady(b)]);

    const takenCount = () => gateway.posts.reduce((n, p) => n + p.takenNumbers.length, 0);
    await eventually(async () => takenCount() >= PEOPLE / 2, 'half the SMS', 120_000);
    a.child.kill('SIGKILL');
    await a.exited;
    const killedAt = Date.now();
    const c = worker('worker-c', PORTS.c);
    await waitReady(c);

    await eventually(
      async () =>
        (await count(`select count(*)::int as n from deliveries where state = 'sent'`)) === PEOPLE &&
        (await count(`select count(*)::int as n from outbreak_alerts where delivered_at is not null`)) === 1,
      'every SMS sent and the fan-out finished',
      120_000,
    );

    // One in-app notification each.
    expect(
      await count(`select count(distinct user_id)::int as n from notifications where type = 'outbreak_alert'`),
    ).toBe(PEOPLE);
    expect(await count(`select count(*)::int as n from notifications where type = 'outbreak_alert'`)).toBe(PEOPLE);
    // Sent in bulk: far fewer requests than messages.
    expect(gateway.posts.length).toBeLessThan(PEOPLE / 10);
    // Every farmer's number taken; the times each was posted, in whichever request.
    const postedAt = new Map<string, number[]>();
    for (const p of gateway.posts) for (const n of p.numbers) postedAt.set(n, [...(postedAt.get(n) ?? []), p.at]);
    const taken = new Set(gateway.posts.flatMap((p) => p.takenNumbers));
    expect(taken.size).toBe(PEOPLE);
    // A number posted twice was in a request the killed worker had in flight: its first post reached the
    // gateway before the worker was seen to die (50 ms: a post it wrote just before may be read just after),
    // and it was posted again only after that worker's lease ran out, seconds later (a send starts in the
    // first half of its lease; a quarter leaves room for the post's way to the gateway). Two living workers
    // never post one. At most the killed worker's requests in flight (docs/decisions/0139), and the rows of
    // its first claim (4 a lane).
    const twice = [...postedAt.values()].filter((times) => times.length > 1);
    console.log(`${twice.length} of ${PEOPLE} numbers posted twice (the killed worker's requests in flight)`);
    expect(twice.length).toBeLessThanOrEqual(SENDS_IN_FLIGHT * (BULK_SIZE + 4));
    for (const times of twice) {
      const [first, ...again] = times.sort((x, y) => x - y);
      expect(first).toBeLessThan(killedAt + 50);
      for (const at of again) expect(at - first).toBeGreaterThanOrEqual(LEASE_SECONDS * 250);
    }
  });
});
