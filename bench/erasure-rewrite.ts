/**
 * What leaving nothing of an erased person in the embedded database's files costs (node bench/erasure-rewrite.ts).
 *
 * An installation on disk (PGlite) with BENCH_FARMERS farmers, each with consents, a session, BENCH_ANALYSES
 * analyses in all, and BENCH_MESSAGES notifications and outbox rows in all; one farmer among them erases
 * their account through the API. Printed: the data directory's size, the erasure's time (the request,
 * with the tables it touched rewritten, a new WAL segment and a checkpoint), the rewrite alone run again
 * on the same tables, and whether the farmer's number, email or username is still anywhere in the files.
 * Exits non-zero if it is. Figures, not a test: the machine's other load shows in them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { privacyApi } from '@kutu/contract';
import { createTestApp } from '../apps/server/test/support/app.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { rewriteFiles } from '../apps/server/src/modules/privacy/erasure.repo.ts';

const FARMERS = Number(process.env.BENCH_FARMERS ?? 5_000);
const ANALYSES = Number(process.env.BENCH_ANALYSES ?? 20_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 50_000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sizeOf = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .reduce((sum, d) => sum + fs.statSync(path.join(d.parentPath, d.name)).size, 0);
function holding(dir: string, needles: string[]): string[] {
  const hits: string[] = [];
  for (const d of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!d.isFile()) continue;
    const bytes = fs.readFileSync(path.join(d.parentPath, d.name));
    for (const n of needles) if (bytes.includes(n)) hits.push(`${d.name}: ${n}`);
  }
  return hits;
}

const t = await createTestApp({ pgliteOnDisk: true, env: { LOG_LEVEL: 'info' } });
const db = t.deps.database;
console.log(`${FARMERS} farmers, ${ANALYSES} analyses, ${MESSAGES} messages; load ${os.loadavg()[0]!.toFixed(1)}`);
await db.execute(
  `insert into users (email, username, role, phone, password_hash, activated_at)
   select 'f' || i || '@example.com', 'farmer' || i, 'farmer', '+2567' || lpad(i::text, 8, '0'), 'x', now()
   from generate_series(1, $1::int) i`,
  [FARMERS],
);
await db.execute(`insert into farmer_profiles (user_id, farm_location, farm_size) select id, 'Mbale', 2.5 from users`);
await db.execute(
  `insert into consents (user_id, purpose, granted, text_version, channel, at)
   select id, p, true, '2026-11-v1', 'web', now() from users, unnest(array['service', 'sms', 'training']) p`,
);
const farmer = await createUser(t, 'farmer', { username: 'bench_leaver', phone: '+256779135791' });
await db.execute(
  `insert into analyses (user_id, image_path, outcome, confidence, probabilities, model_version)
   select (select min(id) from users) + (i % ($1::int + 1)), 'analyses/bench/' || i || '.jpg', 'diagnosis', 0.9,
          '{"common_rust": 0.9}'::jsonb, 'v1'
   from generate_series(1, $2::int) i`,
  [FARMERS, ANALYSES],
);
await db.execute(
  `insert into notifications (user_id, type, message)
   select (select min(id) from users) + (i % ($1::int + 1)), 'review', 'Your photo was reviewed ' || i
   from generate_series(1, $2::int) i`,
  [FARMERS, MESSAGES],
);
await db.execute(
  `insert into deliveries (key, user_id, channel, kind, body, next_at, created_at)
   select 'bench-' || i, (select min(id) from users) + (i % ($1::int + 1)), 'sms', 'service',
          '{"key": "smsIn.stopped", "params": {}}'::jsonb, now(), now()
   from generate_series(1, $2::int) i`,
  [FARMERS, MESSAGES],
);
await db.execute(`update notifications set message = 'bench_leaver (+256779135791) booked your slot' where id = 1`);
await db.execute('checkpoint');
const dir = path.join(t.dataDir, 'db');
const needles = [farmer.phone, farmer.email, farmer.username];
console.log(
  `data directory ${mb(sizeOf(dir))}; the farmer's traces in its files before: ${holding(dir, needles).length}`,
);

let started = performance.now();
const res = await t.app.inject({
  method: 'POST',
  url: privacyApi.deleteAccount,
  headers: farmer.headers,
  payload: { password: farmer.password },
});
const erasure = performance.now() - started;
if (res.statusCode !== 200) throw new Error(`erasure ${res.statusCode}: ${res.body}`);
const left = holding(dir, needles);
const touched = ['users', 'farmer_profiles', 'consents', 'refresh_tokens', 'analyses', 'notifications'];
started = performance.now();
await rewriteFiles(db, touched);
const rewrite = performance.now() - started;
console.log(`erasure request, files rewritten: ${(erasure / 1000).toFixed(2)} s`);
console.log(`the rewrite alone again (${touched.join(', ')}): ${(rewrite / 1000).toFixed(2)} s`);
console.log(`data directory after ${mb(sizeOf(dir))}; the farmer's traces in its files after: ${left.length}`);
for (const hit of left) console.log(`  still there: ${hit}`);
await t.close();
process.exit(left.length === 0 ? 0 : 1);
