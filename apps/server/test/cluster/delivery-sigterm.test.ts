import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTemporaryPostgres } from '../../../../scripts/postgres.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { raiseMaizeAlert, seedDistrictFarmers } from '../support/farmers.ts';
import { type SmsGateway, startSmsGateway } from '../support/sms-gateway.ts';
import { eventually, type Proc, startProcess, stopProcess, waitReady } from '../support/processes.ts';

const PEOPLE = 400;
const DISTRICT = 'UG-305';
const PORTS = { a: 8421, b: 8422 };

/**
 * A worker stopped as a deploy stops it (SIGTERM) half-way through an alert, on PostgreSQL: it stops
 * claiming, finishes its sends in flight and records them, and exits before its forced exit. The next
 * worker sends the rest: no SMS is posted twice.
 */
describe('delivery workers: a SIGTERM half-way through an alert', () => {
  let pg: { url: string; stop: () => Promise<void> };
  let database: Database;
  let gateway: SmsGateway;
  let tmp: string;
  const procs: Proc[] = [];

  beforeAll(async () => {
    pg = await startTemporaryPostgres();
    database = await openDatabase({ url: pg.url });
    await database.migrate();
    // Slow enough that sends are in flight at the signal.
    gateway = await startSmsGateway({ delayMs: 40 });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-sigterm-'));
    await seedDistrictFarmers(database, DISTRICT, PEOPLE, 2);
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
      // One request per message, each with its key (a bulk request's rows are recorded together: the
      // kill -9 test in delivery.test.ts sends in bulk).
      SMS_BULK_SIZE: '1',
    });
    procs.push(p);
    return p;
  };
  const count = async (query: string) => Number((await database.execute(query)).rows[0].n);

  it('stops claiming, records its sends in flight, exits cleanly; nothing is posted twice', async () => {
    await raiseMaizeAlert(database, DISTRICT);
    const a = worker('worker-a', PORTS.a);
    await waitReady(a);
    await eventually(async () => gateway.posts.length >= PEOPLE / 4, 'a quarter of the SMS', 120_000);
    const signalled = Date.now();
    a.child.kill('SIGTERM');
    // A clean exit (0), before the 10-second forced one (1).
    expect(await a.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    // Posts are SMS parts (`kutu-<row>-<part>`): the rows the stopped worker posted any part of.
    const rowOf = (key: string | null) => key?.split('-')[1];
    const rowsOfA = new Set(gateway.posts.map((p) => rowOf(p.key)));
    expect(rowsOfA.size).toBeLessThan(PEOPLE);
    // Each one it started is sent whole and recorded; nothing is left claimed or half sent.
    expect(await count(`select count(*)::int as n from deliveries where channel = 'sms' and state = 'sent'`)).toBe(
      rowsOfA.size,
    );
    expect(
      await count(
        `select count(*)::int as n from deliveries where state = 'sending' or (state <> 'sent' and parts_sent > 0)`,
      ),
    ).toBe(0);

    const b = worker('worker-b', PORTS.b);
    await waitReady(b);
    await eventually(
      async () =>
        (await count(`select count(*)::int as n from deliveries where channel = 'sms' and state = 'sent'`)) === PEOPLE,
      'every SMS sent',
      120_000,
    );
    // Every part of every SMS posted once.
    const perKey = new Map<string, number>();
    for (const p of gateway.posts) perKey.set(p.key!, (perKey.get(p.key!) ?? 0) + 1);
    expect(new Set(gateway.posts.map((p) => rowOf(p.key))).size).toBe(PEOPLE);
    expect([...perKey.entries()].filter(([, n]) => n > 1)).toEqual([]);
  });
});
