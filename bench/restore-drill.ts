/**
 * The operator's drill, on the embedded database and on PostgreSQL (node bench/restore-drill.ts).
 *
 * For each: an installation served by a real server while BENCH_UPLOADERS farmers upload photos; a backup
 * (A) taken while they write, then another (B) with more in it; the installation wiped and restored from
 * A; restores of B killed (SIGKILL) after BENCH_KILL_MS milliseconds each, then what a server start does
 * (finishing or undoing the restore); a forced restore of an archive whose dump does not load. After each
 * step the installation's fingerprint (accounts, analyses, the stored files' names, model files, scratch
 * folders) must be A's or B's whole, never a mix, never empty, and every analysis's photo must be there.
 * Prints each step, its time and which installation it left; exits non-zero at the first mix.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { analysisApi, api } from '@kutu/contract';
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { createStorage } from '../apps/server/src/adapters/storage-url.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { extractArchive, MANIFEST, verifyArchive, writeArchive } from '../apps/server/src/modules/backup/archive.ts';
import { finishInterruptedRestore } from '../apps/server/src/modules/backup/restore.ts';
import { hashSecret } from '../apps/server/src/modules/auth/passwords.ts';
import { startServerProcess, stopServerProcess } from './server-process.ts';

const FARMERS = Number(process.env.BENCH_FARMERS ?? 200);
const UPLOADERS = Number(process.env.BENCH_UPLOADERS ?? 2);
const KILL_MS = (process.env.BENCH_KILL_MS ?? '300,1500,4000,8000').split(',').map(Number);
const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'apps/server/src/cli/backup.ts');
const PHOTO = fs.readFileSync(path.join(ROOT, 'apps/server/test/fixtures/maize-common-rust.jpg'));
const PASSWORD = 'Drill!Restore2026';
const run = promisify(execFile);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-drill-'));
const secs = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
let mixed = false;

interface Kind {
  name: 'pglite' | 'postgres';
  dataDir: string;
  url?: string;
  env: Record<string, string>;
}

async function cli(kind: Kind, ...args: string[]) {
  return run(process.execPath, [CLI, ...args], { env: { ...process.env, NODE_ENV: 'test', ...kind.env } }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}

/** Farmers who can sign in, created before the server starts (PGlite is one process's). */
async function seed(kind: Kind) {
  const database = await openDatabase({ url: kind.url, pgliteDir: path.join(kind.dataDir, 'db') });
  await database.migrate();
  await database.execute(
    `insert into users (email, username, role, phone, password_hash, activated_at, phone_verified_at)
     select 'd' || i || '@example.com', 'drill' || i, 'farmer', '+2567' || lpad(i::text, 8, '0'), $2, now(), now()
     from generate_series(1, $1::int) i`,
    [FARMERS, await hashSecret(PASSWORD)],
  );
  await database.close();
  fs.mkdirSync(path.join(kind.dataDir, 'models', 'drill'), { recursive: true });
  fs.writeFileSync(path.join(kind.dataDir, 'models', 'drill', 'model.onnx'), 'weights');
}

/** Uploads from UPLOADERS farmers until `stop()`; how many were answered. */
async function farmersWriting(base: string, stop: () => boolean): Promise<number> {
  const loop = async (i: number) => {
    const res = await fetch(`${base}${api.auth.login}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: `+2567${String(i + 1).padStart(8, '0')}`, password: PASSWORD }),
    });
    const { access } = (await res.json()) as { access: string };
    let n = 0;
    while (!stop()) {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(PHOTO)], { type: 'image/jpeg' }), 'leaf.jpg');
      const up = await fetch(`${base}${analysisApi.detect}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access}` },
        body: form,
      });
      await up.arrayBuffer();
      if (up.status === 201) n += 1;
    }
    return n;
  };
  return (await Promise.all(Array.from({ length: UPLOADERS }, (_, i) => loop(i)))).reduce((a, b) => a + b, 0);
}

/** Accounts, analyses, every stored file's name, model files, analyses without their photo, scratch left. */
async function fingerprint(kind: Kind): Promise<string> {
  const dbDir = path.join(kind.dataDir, 'db');
  if (!kind.url && !fs.existsSync(path.join(dbDir, 'PG_VERSION'))) return 'no database';
  const database = await openDatabase({ url: kind.url, pgliteDir: dbDir });
  let counts: Record<string, unknown>;
  let paths: string[];
  try {
    const tables = await database.execute(`select to_regclass('public.analyses') is not null as ok`);
    if (!tables.rows[0]?.ok) return 'no tables';
    counts = (
      await database.execute(
        'select (select count(*) from users)::int as users, (select count(*) from analyses)::int as analyses',
      )
    ).rows[0]!;
    paths = (await database.execute('select image_path as p from analyses')).rows.map((r) => String(r.p));
  } finally {
    await database.close();
  }
  const storage = createStorage(undefined, kind.dataDir);
  const keys = (await storage.list('')).map((o) => o.key).sort();
  const missing = paths.filter((p) => !keys.includes(p)).length;
  const models = fs.existsSync(path.join(kind.dataDir, 'models'))
    ? fs.readdirSync(path.join(kind.dataDir, 'models'), { recursive: true }).length
    : 0;
  const scratch = fs.readdirSync(kind.dataDir).filter((n) => n.startsWith('.restore-') || n === 'restore-journal.json');
  const files = createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 8);
  return `${counts.users} accounts, ${counts.analyses} analyses (${missing} without photo), ${keys.length} files #${files}, ${models} model entries${scratch.length ? `, scratch: ${scratch.join(' ')}` : ''}`;
}

function judge(step: string, seen: string, allowed: Record<string, string>) {
  const which = Object.entries(allowed).find(([, f]) => f === seen)?.[0];
  if (!which) mixed = true;
  console.log(`  ${step}: ${which ? `installation ${which}` : `NEITHER (${seen})`}`);
}

async function wipe(kind: Kind) {
  fs.rmSync(kind.dataDir, { recursive: true, force: true });
  if (kind.url) {
    const admin = new pg.Client({ connectionString: kind.url.replace(/\/[^/]+$/, '/postgres') });
    await admin.connect();
    await admin.query('drop database if exists drill with (force)');
    await admin.query('create database drill');
    await admin.end();
  }
}

async function drill(kind: Kind) {
  console.log(`\n${kind.name}: ${FARMERS} farmers, ${UPLOADERS} uploading`);
  await wipe(kind);
  await seed(kind);
  const server = await startServerProcess(kind.env);
  let writing = true;
  const writes = farmersWriting(server.base, () => !writing);
  await new Promise((r) => setTimeout(r, 5000));
  const archives = { A: path.join(tmp, `${kind.name}-A.tar.gz`), B: path.join(tmp, `${kind.name}-B.tar.gz`) };
  let t = performance.now();
  const a = await cli(kind, 'backup', '--out', archives.A);
  console.log(`  backup A while farmers upload: ${secs(t)}: ${a.out.trim().split('\n').at(-1)}`);
  await new Promise((r) => setTimeout(r, 5000));
  t = performance.now();
  const b = await cli(kind, 'backup', '--out', archives.B);
  console.log(`  backup B while farmers upload: ${secs(t)}: ${b.out.trim().split('\n').at(-1)}`);
  writing = false;
  console.log(`  uploads answered during the drill's writing: ${await writes}`);
  await stopServerProcess(server.child);
  if (a.code !== 0 || b.code !== 0) throw new Error('a backup failed');

  const known: Record<string, string> = {};
  for (const name of ['A', 'B'] as const) {
    await wipe(kind);
    t = performance.now();
    const r = await cli(kind, 'restore', '--from', archives[name]);
    if (r.code !== 0) throw new Error(`restore ${name}: ${r.out}`);
    known[name] = await fingerprint(kind);
    console.log(`  wipe, restore ${name}: ${secs(t)}: ${known[name]}`);
  }
  if (known.A === known.B) throw new Error('A and B hold the same: the drill cannot tell them apart');
  // Now at B. Kill restores of A, then of B, at several moments; a server start finishes or undoes.
  for (const [i, ms] of KILL_MS.entries()) {
    const from = archives[i % 2 === 0 ? 'A' : 'B'];
    const child = spawn(process.execPath, [CLI, 'restore', '--from', from, '--force'], {
      env: { ...process.env, NODE_ENV: 'test', ...kind.env },
      stdio: 'ignore',
    });
    const exited = new Promise((r) => child.on('exit', r));
    setTimeout(() => child.kill('SIGKILL'), ms);
    await exited;
    t = performance.now();
    await finishInterruptedRestore(
      { databaseUrl: kind.url, storage: createStorage(undefined, kind.dataDir), dataDir: kind.dataDir },
      (msg) => console.log(`    ${msg}`),
    );
    judge(
      `restore of ${from.endsWith('A.tar.gz') ? 'A' : 'B'} killed after ${ms} ms, then a start (${secs(t)})`,
      await fingerprint(kind),
      known,
    );
  }
  // A forced restore of an archive whose dump stops half-way: the installation stays as it is.
  const staging = path.join(tmp, `${kind.name}-bad`);
  const manifest = await verifyArchive(archives.A);
  await extractArchive(archives.A, staging, manifest);
  const dump = path.join(staging, manifest.database_file);
  fs.truncateSync(dump, Math.floor(fs.statSync(dump).size / 2));
  fs.rmSync(path.join(staging, MANIFEST));
  const { files: _f, format: _fo, version: _v, ...meta } = manifest;
  const bad = path.join(tmp, `${kind.name}-bad.tar.gz`);
  await writeArchive(staging, bad, meta);
  const before = await fingerprint(kind);
  t = performance.now();
  const failed = await cli(kind, 'restore', '--from', bad, '--force');
  console.log(
    `  restore --force of a dump that does not load: exit ${failed.code} in ${secs(t)}: ${failed.out.trim().split('\n').at(-1)}`,
  );
  const after = await fingerprint(kind);
  if (after !== before) mixed = true;
  judge('after it', after, known);
}

const pgServer = await startTemporaryPostgres();
try {
  const url = pgServer.url.replace(/\/postgres$/, '/drill');
  await drill({ name: 'pglite', dataDir: path.join(tmp, 'pglite'), env: { DATA_DIR: path.join(tmp, 'pglite') } });
  await drill({
    name: 'postgres',
    dataDir: path.join(tmp, 'pg'),
    url,
    env: { DATA_DIR: path.join(tmp, 'pg'), DATABASE_URL: url },
  });
} finally {
  pgServer.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(mixed ? '\nA step left neither installation.' : '\nEvery step left installation A or B, whole.');
process.exit(mixed ? 1 : 0);
