/**
 * API throughput, measured (npm run bench:api).
 *
 * In one run, on embedded PGlite and then on a throwaway PostgreSQL server (scripts/postgres.ts), the
 * real server listens on loopback with its rate limits raised through config, over a seeded database
 * (120 approved posts with 3 comments each, 200 bookable slots, 40 analyses for the farmer), and
 * autocannon drives, one route at a time:
 *   health, the approved posts list, the bookable slots list, the farmer's dashboard, the farmer's
 *   analyses (the history screen's first page), and login.
 * Prints req/s and p99 latency per route, the lists' throughput as a share of the health route's, and
 * CPU per request (this process, and the PostgreSQL server's), which the load of others on a shared
 * machine does not change.
 * BENCH_SECONDS (default 8) per route, BENCH_CONNECTIONS (default 20; login always 10).
 * BENCH_DB=pglite or postgres runs one database; BENCH_ROUTES=posts,slots,... a subset (for profiling).
 * BENCH_ACCEPT_ENCODING (e.g. `gzip, deflate, br`, as browsers send) asks for compressed replies; without
 * it replies come uncompressed, as in the earlier figures.
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { analyses, availabilitySlots, posts, responses } from '../apps/server/src/db/schema/index.ts';
import { createTestApp, type TestContext } from '../apps/server/test/support/app.ts';
import { createUser, type TestUser } from '../apps/server/test/support/users.ts';
import { startTemporaryPostgres } from '../scripts/postgres.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const LOGIN_CONNECTIONS = 10;
const ROUTES = (process.env.BENCH_ROUTES ?? 'health,posts,slots,dashboard,analyses,login').split(',');
const DATABASES = (process.env.BENCH_DB ?? 'pglite,postgres').split(',');
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING;

interface Row {
  route: string;
  reqPerSec: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU per request of this process (server, load generator, and PGlite when embedded), ms. */
  cpuMs: number;
  /** CPU per request of the PostgreSQL server's processes, ms (0 for PGlite). */
  dbCpuMs: number;
}

/**
 * CPU seconds used so far by the PostgreSQL server listening on `port`: its postmaster and the
 * backends it forked (the pool keeps its connections open while a route is driven). Throughput on a
 * shared machine swings with the load of others; CPU per request does not.
 */
function postgresCpuSeconds(port: string | undefined): number {
  if (!port) return 0;
  const procs = fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return { pid: Number(pid), ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / 100, cmd };
      } catch {
        return null;
      }
    })
    .filter((p) => p !== null);
  const postmaster = procs.find((p) => p.cmd[0].endsWith('/postgres') && p.cmd.includes(port));
  if (!postmaster) return 0;
  return procs.filter((p) => p.pid === postmaster.pid || p.ppid === postmaster.pid).reduce((sum, p) => sum + p.cpu, 0);
}

async function seed(t: TestContext): Promise<{ farmer: TestUser; expert: TestUser }> {
  const db = t.deps.database.db;
  const farmer = await createUser(t, 'farmer');
  const expert = await createUser(t, 'expert');
  const now = Date.now();
  const postIds = (
    await db
      .insert(posts)
      .values(
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
      )
      .returning({ id: posts.id })
  ).map((r) => r.id);
  await db.insert(responses).values(
    postIds.flatMap((postId, i) =>
      [0, 1, 2].map((k) => ({
        postId,
        authorId: k === 2 ? expert.id : farmer.id,
        kind: k === 2 ? ('expert' as const) : ('farmer' as const),
        content: `Comment ${k} on post ${i}: spray early and remove the worst leaves.`,
        status: 'approved' as const,
        createdAt: new Date(now - i * 60_000 + k * 1000),
      })),
    ),
  );
  await db.insert(availabilitySlots).values(
    Array.from({ length: 200 }, (_, i) => ({
      expertId: expert.id,
      startTime: new Date(now + (i + 1) * 3600_000),
      endTime: new Date(now + (i + 1) * 3600_000 + 1800_000),
    })),
  );
  await db.insert(analyses).values(
    Array.from({ length: 40 }, (_, i) => ({
      userId: farmer.id,
      imagePath: `analyses/bench/${i}.jpg`,
      outcome: 'diagnosis' as const,
      rustClass: 'common_rust',
      confidence: 0.9,
      probabilities: { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 },
      modelVersion: 'bench',
      createdAt: new Date(now - i * 3600_000),
    })),
  );
  return { farmer, expert };
}

async function drive(
  base: string,
  route: string,
  opts: {
    path: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
  },
): Promise<Row> {
  const pgPort = process.env.TEST_DATABASE_URL ? new URL(process.env.TEST_DATABASE_URL).port : undefined;
  const cpuBefore = process.cpuUsage();
  const dbBefore = postgresCpuSeconds(pgPort);
  const result = await autocannon({
    url: base + opts.path,
    method: opts.method ?? 'GET',
    headers: ACCEPT_ENCODING ? { ...opts.headers, 'accept-encoding': ACCEPT_ENCODING } : opts.headers,
    body: opts.body,
    connections: opts.connections ?? CONNECTIONS,
    duration: SECONDS,
  });
  const cpu = process.cpuUsage(cpuBefore);
  const done = Math.max(1, result.requests.total);
  // The average of per-second samples reads 0 for a route slower than one request a second per sample.
  return {
    route,
    reqPerSec: result.requests.total / SECONDS,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuMs: (cpu.user + cpu.system) / 1000 / done,
    dbCpuMs: (1000 * (postgresCpuSeconds(pgPort) - dbBefore)) / done,
  };
}

async function benchDatabase(kind: string): Promise<Row[]> {
  const t = await createTestApp({ env: { RATE_LIMIT_MAX: '100000000', AUTH_RATE_LIMIT_MAX: '100000000' } });
  try {
    const { farmer } = await seed(t);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const auth = { authorization: farmer.headers.authorization };
    const routes: [string, string, Parameters<typeof drive>[2]][] = [
      ['health', 'health', { path: '/api/health/' }],
      ['posts', 'approved posts (page of 10)', { path: '/api/community/posts/', headers: auth }],
      ['slots', 'bookable slots (page of 10)', { path: '/api/consultations/availability-slots/all/', headers: auth }],
      ['dashboard', 'farmer dashboard', { path: '/api/dashboard/', headers: auth }],
      ['analyses', "farmer's analyses (history)", { path: '/api/rust-detection/', headers: auth }],
      [
        'login',
        'login',
        {
          path: '/api/auth/login/',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: farmer.email, password: farmer.password }),
          // As in the security probe (docs/decisions/0008): argon2id makes each login cost ~100 ms of CPU by design.
          connections: LOGIN_CONNECTIONS,
        },
      ],
    ];
    const rows: Row[] = [];
    for (const [key, label, opts] of routes) {
      if (ROUTES.includes(key)) rows.push(await drive(base, label, opts));
    }
    const encoding = ACCEPT_ENCODING ? `, Accept-Encoding: ${ACCEPT_ENCODING}` : '';
    console.log(`\n${kind} (${t.deps.database.kind}), ${CONNECTIONS} connections, ${SECONDS} s per route${encoding}`);
    const health = rows.find((r) => r.route === 'health')?.reqPerSec ?? Number.NaN;
    for (const r of rows) {
      const share = r.route === 'health' ? '' : `  ${((100 * r.reqPerSec) / health).toFixed(0)} % of health`;
      const errors = r.non2xx || r.errors ? `  (${r.non2xx} non-2xx, ${r.errors} errors!)` : '';
      const cpu = `CPU/req ${r.cpuMs.toFixed(2)} ms${r.dbCpuMs ? ` + database ${r.dbCpuMs.toFixed(2)} ms` : ''}`;
      console.log(
        `  ${r.route.padEnd(30)} ${r.reqPerSec.toFixed(0).padStart(6)} req/s  p99 ${String(r.p99).padStart(5)} ms  ${cpu}${share}${errors}`,
      );
    }
    return rows;
  } finally {
    await t.close();
  }
}

for (const kind of DATABASES) {
  if (kind === 'postgres') {
    const pg = await startTemporaryPostgres();
    process.env.TEST_DATABASE_URL = pg.url;
    try {
      await benchDatabase('PostgreSQL');
    } finally {
      delete process.env.TEST_DATABASE_URL;
      pg.stop();
    }
  } else {
    await benchDatabase('PGlite');
  }
}
