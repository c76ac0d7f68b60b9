/**
 * Review queue listing time with 50,000 analyses (npm run bench:review-queue).
 *
 * Seeds 50,000 analyses (40 farmers, two model versions, ~15 % unsure, three crops, 90 days), 300
 * farmers' questions waiting and 2,000 decided reviews, then times GET /api/expert-reviews/queue/
 * through app.inject (validation, both queue queries, counts, the analysis rows and the reply) for
 * the first page, a deep page and filtered pages, and the queue's SQL alone (both counts and the
 * page) through the repo. Runs on PGlite, then on a temporary PostgreSQL
 * server (skipped with a note when PostgreSQL is not installed). Prints medians of BENCH_RUNS runs
 * (default 15) on this machine's shared cores. Target: under 50 ms per page.
 */
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { createTestApp, type TestContext } from '../apps/server/test/support/app.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { analyses, expertReviews } from '../apps/server/src/db/schema/index.ts';
import { createReviewRepo } from '../apps/server/src/modules/review/review.repo.ts';

const ANALYSES = Number(process.env.BENCH_ANALYSES ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 5;
const ASKED = 300;
const DECIDED = 2_000;
const DAY = 24 * 60 * 60 * 1000;

/** A small deterministic generator, so both databases hold the same data. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

async function seed(t: TestContext) {
  const farmers = [];
  for (let i = 0; i < 40; i++) farmers.push(await createUser(t, 'farmer'));
  const expert = await createUser(t, 'expert');
  const photo = await t.deps.storage.put('analyses/bench', Buffer.from('not read by the queue'), 'jpg');
  const rnd = random(42);
  const classes = ['common_rust', 'healthy', 'other_disease'] as const;
  const crops = ['maize', 'beans', 'other', null] as const;
  const start = Date.UTC(2026, 2, 1);
  const db = t.deps.database.db;
  for (let done = 0; done < ANALYSES; done += 1000) {
    const rows = [];
    for (let i = 0; i < Math.min(1000, ANALYSES - done); i++) {
      const raw = classes.map(() => rnd() ** 2);
      const sum = raw.reduce((a, b) => a + b, 0);
      const p = raw.map((v) => v / sum);
      const best = p.indexOf(Math.max(...p));
      const notLeaf = rnd() < 0.05;
      rows.push({
        userId: farmers[Math.floor(rnd() * farmers.length)].id,
        imagePath: photo,
        outcome: notLeaf ? ('not_leaf' as const) : ('diagnosis' as const),
        rustClass: notLeaf ? null : classes[best],
        confidence: p[best],
        unsure: !notLeaf && p[best] < 0.6,
        probabilities: { common_rust: p[0], healthy: p[1], other_disease: p[2] },
        modelVersion: rnd() < 0.3 ? 'v1-20261121' : 'v20261201-j3',
        crop: crops[Math.floor(rnd() * crops.length)],
        createdAt: new Date(start + rnd() * 90 * DAY),
      });
    }
    await db.insert(analyses).values(rows);
  }
  const now = new Date();
  const reviews = [];
  for (let id = 1; id <= ASKED + DECIDED; id++) {
    const analysisId = id * Math.floor(ANALYSES / (ASKED + DECIDED + 1));
    reviews.push(
      id <= ASKED
        ? { analysisId, question: 'Is this rust?', askedAt: now, createdAt: now }
        : { analysisId, reviewerId: expert.id, verdict: 'healthy' as const, reviewedAt: now, createdAt: now },
    );
  }
  for (let i = 0; i < reviews.length; i += 500) await db.insert(expertReviews).values(reviews.slice(i, i + 500));
  await t.deps.database.execute('analyze');
  return expert;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function bench(label: string) {
  const t = await createTestApp();
  try {
    const seedStart = performance.now();
    const expert = await seed(t);
    console.log(`\n${label}: seeded ${ANALYSES} analyses in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    const cases: [string, Record<string, string>][] = [
      ['page 1 (20 items)', { page_size: '20' }],
      ['page 100 (20 items, offset 1,980)', { page: '100', page_size: '20' }],
      ['crop=maize', { crop: 'maize', page_size: '20' }],
      ['outcome=unsure', { outcome: 'unsure', page_size: '20' }],
      ['model_version + 30-day range', { model_version: 'v20261201-j3', from: '2026-04-01', to: '2026-04-30' }],
    ];
    const repo = createReviewRepo(t.deps.database.db);
    console.log(`  ${'page'.padEnd(36)}   HTTP route   queue SQL only`);
    for (const [name, query] of cases) {
      const http: number[] = [];
      const sqlOnly: number[] = [];
      let count = 0;
      const page = Number(query.page ?? 1);
      const size = Number(query.page_size ?? 10);
      const filters = {
        crop: query.crop,
        outcome: query.outcome as 'unsure' | undefined,
        modelVersion: query.model_version,
        from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
        until: query.to ? new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY) : undefined,
      };
      for (let i = 0; i < RUNS + WARMUP; i++) {
        const t0 = performance.now();
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/expert-reviews/queue/',
          query,
          headers: expert.headers,
        });
        const t1 = performance.now();
        await repo.queuePage(filters, { limit: size, offset: (page - 1) * size });
        const t2 = performance.now();
        if (res.statusCode !== 200) throw new Error(`${name}: HTTP ${res.statusCode} ${res.body}`);
        count = res.json().count;
        if (i >= WARMUP) {
          http.push(t1 - t0);
          sqlOnly.push(t2 - t1);
        }
      }
      const fmt = (xs: number[]) => `${median(xs).toFixed(1).padStart(6)} ms`;
      console.log(`  ${name.padEnd(36)} ${fmt(http)}   ${fmt(sqlOnly)}   (count ${count})`);
    }
  } finally {
    await t.close();
  }
}

await bench('PGlite');
let pg: Awaited<ReturnType<typeof startTemporaryPostgres>> | null = null;
try {
  pg = await startTemporaryPostgres();
} catch (err) {
  console.log(`\nPostgreSQL: skipped (${(err as Error).message})`);
}
if (pg) {
  process.env.TEST_DATABASE_URL = pg.url;
  try {
    await bench('PostgreSQL');
  } finally {
    pg.stop();
  }
}
