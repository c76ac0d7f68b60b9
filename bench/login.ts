/**
 * What a sign-in costs, measured (npm run bench:login).
 *
 *   1. argon2id alone, per verify: wall time and CPU time (process CPU, which includes libuv's pool
 *      threads) for the parameters we use and for the alternatives OWASP lists, plus the old defaults
 *      of the argon2 package (64 MiB, 3 passes, 4 lanes) that earlier hashes may still carry;
 *   2. POST /api/auth/login/ through app.inject (PGlite in memory, or PostgreSQL with TEST_DATABASE_URL):
 *      wall and CPU per sign-in (this process only), one at a time;
 *   3. the event loop while 10 sign-ins run at once: its delay (perf_hooks.monitorEventLoopDelay, 1 ms
 *      resolution) next to the same measurement with no sign-ins and with 10 synchronous 40 ms blocks,
 *      to show what a blocked loop would look like.
 * Set BENCH_RUNS to change the number of runs (default 20).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import argon2 from 'argon2';
import { createTestApp } from '../apps/server/test/support/app.ts';
import { hashOptions } from '../apps/server/src/modules/auth/passwords.ts';
import { users } from '../apps/server/src/db/schema/index.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const PASSWORD = 'Gr0w!Smart2026';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Median wall time and mean CPU time (user + system, all threads) of `fn`, run one at a time. */
async function cost(fn: () => Promise<unknown>) {
  await fn();
  const walls: number[] = [];
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    walls.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(cpuStart);
  return { wall: median(walls), cpu: (cpu.user + cpu.system) / 1000 / RUNS };
}

/** Event-loop delay (max and p99, ms) and how busy the main thread was while `work` runs. */
async function loopDelay(work: () => Promise<unknown>) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const start = performance.now();
  const elu = performance.eventLoopUtilization();
  await work();
  const busy = performance.eventLoopUtilization(elu).utilization;
  const elapsed = performance.now() - start;
  histogram.disable();
  return { max: histogram.max / 1e6, p99: histogram.percentile(99) / 1e6, elapsed, busy };
}
const describeDelay = (d: Awaited<ReturnType<typeof loopDelay>>) =>
  `max ${ms(d.max)}, p99 ${ms(d.p99)}, main thread busy ${(d.busy * 100).toFixed(0)} % of ${ms(d.elapsed)}`;

console.log(
  `Sign-in cost: ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load ${os.loadavg()[0].toFixed(2)}, ` +
    `UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}, ${RUNS} runs\n`,
);

console.log('1. argon2id verify alone');
const candidates = [
  { name: 'm=19 MiB t=2 p=1 (in use)', options: hashOptions },
  { name: 'm=46 MiB t=1 p=1', options: { type: argon2.argon2id, memoryCost: 47_104, timeCost: 1, parallelism: 1 } },
  { name: 'm=64 MiB t=3 p=4 (old defaults)', options: { type: argon2.argon2id } },
];
for (const { name, options } of candidates) {
  const hash = await argon2.hash(PASSWORD, options);
  const { wall, cpu } = await cost(() => argon2.verify(hash, PASSWORD));
  console.log(`   ${name.padEnd(32)} wall ${ms(wall).padStart(9)}   CPU ${ms(cpu).padStart(9)}`);
}

const t = await createTestApp({ env: { LOG_LEVEL: 'silent' } });
const now = new Date();
const email = 'bench-login@example.com';
await t.deps.database.db.insert(users).values({
  email,
  username: 'bench_login',
  role: 'farmer',
  phone: '+256772123456',
  passwordHash: await argon2.hash(PASSWORD, hashOptions),
  emailVerifiedAt: now,
  phoneVerifiedAt: now,
  activatedAt: now,
});
const login = async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password: PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`login answered ${res.statusCode}: ${res.body}`);
};

console.log(`\n2. POST /api/auth/login/ (one at a time, ${t.deps.database.kind})`);
const perLogin = await cost(login);
console.log(`   per sign-in: wall ${ms(perLogin.wall)}, CPU ${ms(perLogin.cpu)}`);

console.log('\n3. event-loop delay (max / p99)');
const idle = await loopDelay(() => new Promise((r) => setTimeout(r, 500)));
console.log(`   nothing running:                  ${describeDelay(idle)}`);
const hash = await argon2.hash(PASSWORD, hashOptions);
const verifies = await loopDelay(() => Promise.all(Array.from({ length: 10 }, () => argon2.verify(hash, PASSWORD))));
console.log(`   10 concurrent argon2 verifies:    ${describeDelay(verifies)}`);
const concurrent = await loopDelay(() => Promise.all(Array.from({ length: 10 }, login)));
console.log(`   10 concurrent sign-ins:           ${describeDelay(concurrent)}`);
const blocked = await loopDelay(async () => {
  for (let i = 0; i < 10; i++) {
    const end = performance.now() + 40;
    while (performance.now() < end);
    await new Promise((r) => setImmediate(r));
  }
});
console.log(`   for comparison, 10 blocking 40 ms steps: ${describeDelay(blocked)}`);

await t.close();
