/**
 * Throughput with one and with two web processes on one PostgreSQL (npm run bench:processes).
 *
 * A throwaway PostgreSQL (scripts/postgres.ts) seeded with 120 approved posts and 200 bookable slots;
 * two web processes (`node apps/server/src/main.ts`, JOBS=off, loopback) on it. autocannon drives each
 * route for BENCH_SECONDS (default 8) with BENCH_CONNECTIONS (default 20) connections: first all of
 * them at process A, then half at A and half at B at the same time. Prints req/s and p99 per route,
 * side by side with the health route measured in the same run. On a machine with few cores the
 * second process competes with the first (and with PostgreSQL) for the same CPU: the figures show
 * how much of a second machine's worth this machine can give, not a second machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { availabilitySlots, posts } from '../apps/server/src/db/schema/index.ts';
import { type Proc, startProcess, stopProcess, waitReady } from '../apps/server/test/support/processes.ts';
import type { TestContext } from '../apps/server/test/support/app.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { startTemporaryPostgres } from '../scripts/postgres.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PORTS = [8410, 8411];

const pg = await startTemporaryPostgres();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-bench-processes-'));
const procs: Proc[] = [];
try {
  const database = await openDatabase({ url: pg.url });
  await database.migrate();
  const t = { deps: { database, config: loadConfig({ DATABASE_URL: pg.url }) } } as unknown as TestContext;
  const farmer = await createUser(t, 'farmer');
  const expert = await createUser(t, 'expert');
  const now = Date.now();
  await database.db.insert(posts).values(
    Array.from({ length: 120 }, (_, i) => ({
      authorId: farmer.id,
      title: `Orange spots on maize leaves, field ${i}`,
      content: 'Small orange pustules appeared on both sides of the leaves this week. What should I spray?',
      cropType: 'MAIZE',
      diseaseType: 'common_rust',
      urgencyLevel: 'high',
      status: 'approved' as const,
      createdAt: new Date(now - i * 60_000),
    })),
  );
  await database.db.insert(availabilitySlots).values(
    Array.from({ length: 200 }, (_, i) => ({
      expertId: expert.id,
      startTime: new Date(now + (i + 1) * 3600_000),
      endTime: new Date(now + (i + 1) * 3600_000 + 1800_000),
    })),
  );
  await database.close();

  for (const [i, port] of PORTS.entries()) {
    procs.push(
      startProcess(`web-${i + 1}`, 'apps/server/src/main.ts', port, {
        DATABASE_URL: pg.url,
        JOBS: 'off',
        LOG_LEVEL: 'warn',
        DATA_DIR: path.join(tmp, `web-${i + 1}`),
        WEB_DIST: path.join(tmp, 'no-web'),
        RATE_LIMIT_MAX: '100000000',
      }),
    );
  }
  await Promise.all(procs.map((p) => waitReady(p)));

  const auth = { authorization: farmer.headers.authorization };
  const routes: [string, string, Record<string, string>][] = [
    ['health', '/api/health/', {}],
    ['approved posts (page of 10)', '/api/community/posts/', auth],
    ['bookable slots (page of 10)', '/api/consultations/availability-slots/all/', auth],
  ];

  /** Drives `route` on the given processes at once, the connections split between them. */
  async function drive(on: Proc[], urlPath: string, headers: Record<string, string>) {
    const results = await Promise.all(
      on.map((p) =>
        autocannon({
          url: p.base + urlPath,
          headers,
          connections: Math.max(1, Math.round(CONNECTIONS / on.length)),
          duration: SECONDS,
        }),
      ),
    );
    return {
      reqPerSec: results.reduce((sum, r) => sum + r.requests.total, 0) / SECONDS,
      p99: Math.max(...results.map((r) => r.latency.p99)),
      failed: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
    };
  }

  console.log(
    `\nPostgreSQL, ${CONNECTIONS} connections in all, ${SECONDS} s per route and setting, ${os.cpus().length} CPU cores`,
  );
  console.log(`  ${'route'.padEnd(30)} ${'1 process'.padStart(22)} ${'2 processes'.padStart(22)}   2 vs 1`);
  for (const [label, urlPath, headers] of routes) {
    const one = await drive(procs.slice(0, 1), urlPath, headers);
    const two = await drive(procs, urlPath, headers);
    const cell = (r: typeof one) => `${r.reqPerSec.toFixed(0).padStart(6)} req/s p99 ${String(r.p99).padStart(4)} ms`;
    const failed = one.failed + two.failed ? `  (${one.failed + two.failed} failed!)` : '';
    console.log(
      `  ${label.padEnd(30)} ${cell(one).padStart(22)} ${cell(two).padStart(22)}   ${(two.reqPerSec / one.reqPerSec).toFixed(2)}×${failed}`,
    );
  }
} finally {
  await Promise.all(procs.map((p) => stopProcess(p)));
  pg.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}
