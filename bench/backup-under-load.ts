/**
 * What a backup costs the farmers using Kutu, and what they cost the backup (node bench/backup-under-load.ts).
 *
 * One embedded-database installation (BENCH_FARMERS accounts, BENCH_PHOTOS analyses with their photos at
 * the app's 1,600-pixel size) served by a real server process. For each BACKUP_NICE given (default "0,10":
 * 0 writes the archive in the server's process, as before; 10 is the default), a fresh copy of the populated
 * data (the uploads of one run would otherwise grow the next one's backup) and a fresh server, then:
 * - a backup with nobody uploading (`npm run backup`, which asks the server over its socket);
 * - BENCH_UPLOADERS farmers uploading leaf photos back to back (each a diagnosis: the heaviest request)
 *   for BENCH_SECONDS, then a backup while they go on, then as long again without one.
 * Printed side by side: the backup's time and archive size quiet and under load, the uploads' p50/p95 without
 * and during the backup, and how many were answered during it. Exits non-zero when a backup fails or no upload was
 * answered while one ran. Figures, not a test: the machine's other load shows in them.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { analysisApi, api } from '@kutu/contract';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { hashSecret } from '../apps/server/src/modules/auth/passwords.ts';
import { ensure } from './measured.ts';
import { startServerProcess, stopServerProcess } from './server-process.ts';

const FARMERS = Number(process.env.BENCH_FARMERS ?? 1_000);
const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 300);
const UPLOADERS = Number(process.env.BENCH_UPLOADERS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const NICES = (process.env.BENCH_NICES ?? '0,10').split(',').map(Number);
const ROOT = path.resolve(import.meta.dirname, '..');
const RUST3 = path.join(ROOT, 'datasets/rust3/common_rust');
const PASSWORD = 'Bench!Backup2026';
const run = promisify(execFile);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-bench-backup-load-'));
/** The installation as populated; each BACKUP_NICE starts from a copy, as the uploads of one run add to its data. */
const template = path.join(tmp, 'template');
const dataDir = path.join(tmp, 'data');
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function populate() {
  const database = await openDatabase({ pgliteDir: path.join(template, 'db') });
  await database.migrate();
  const hash = await hashSecret(PASSWORD);
  await database.execute(
    `insert into users (email, username, role, phone, password_hash, activated_at, phone_verified_at)
     select 'f' || i || '@example.com', 'farmer' || i, 'farmer', '+2567' || lpad(i::text, 8, '0'), $2, now(), now()
     from generate_series(1, $1::int) i`,
    [FARMERS, hash],
  );
  await database.execute(
    `insert into farmer_profiles (user_id, farm_location, farm_size) select id, 'Mbale', 2.5 from users`,
  );
  await database.execute(
    `insert into analyses (user_id, image_path, outcome, confidence, probabilities, model_version)
     select (select min(id) from users) + (i % $1::int), 'analyses/bench/' || i || '.jpg', 'diagnosis', 0.9,
            '{"common_rust": 0.9}'::jsonb, 'v1'
     from generate_series(1, $2::int) i`,
    [FARMERS, PHOTOS],
  );
  await database.close();
  const names = fs
    .readdirSync(RUST3)
    .filter((n) => n.endsWith('.jpg'))
    .slice(0, 30);
  const photos = await Promise.all(
    names.map((n) => sharp(path.join(RUST3, n)).resize(1600, 1600, { fit: 'inside' }).jpeg({ quality: 85 }).toBuffer()),
  );
  const dir = path.join(template, 'uploads', 'analyses', 'bench');
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 1; i <= PHOTOS; i++) {
    fs.writeFileSync(path.join(dir, `${i}.jpg`), Buffer.concat([photos[i % photos.length]!, Buffer.from(String(i))]));
  }
  return photos;
}

/** `npm run backup` as an operator runs it; its time and the archive's size, or throws with its output. */
async function backup(name: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const out = path.join(tmp, 'archives', `${name}.tar.gz`);
  const r = await run(process.execPath, [path.join(ROOT, 'apps/server/src/cli/backup.ts'), 'backup', '--out', out], {
    env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir },
  });
  if (!r.stdout.startsWith('Backup written')) throw new Error(`backup failed: ${r.stdout}${r.stderr}`);
  const ms = performance.now() - started;
  const bytes = fs.statSync(out).size;
  fs.rmSync(out);
  return { ms, bytes };
}

async function signIn(base: string, phone: string): Promise<string> {
  const res = await fetch(`${base}${api.auth.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: phone, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access: string }).access;
}

/** Uploads back to back until `until()` says stop; every answered upload's end time and duration. */
async function uploader(base: string, token: string, photo: Buffer, until: () => boolean) {
  const done: { at: number; ms: number }[] = [];
  while (!until()) {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'leaf.jpg');
    form.append('crop', 'maize');
    const started = performance.now();
    const res = await fetch(`${base}${analysisApi.detect}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    await res.arrayBuffer();
    if (res.status === 201) done.push({ at: performance.now(), ms: performance.now() - started });
  }
  return done;
}

console.log(
  `${FARMERS} farmers, ${PHOTOS} photos, ${UPLOADERS} farmers uploading, ${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
);
const photos = await populate();
const rows: string[][] = [];
let failed = false;
for (const nice of NICES) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.cpSync(template, dataDir, { recursive: true });
  const server = await startServerProcess({ DATA_DIR: dataDir, BACKUP_NICE: String(nice) });
  try {
    const quiet = await backup(`quiet-${nice}`);
    console.log(`BACKUP_NICE=${nice}: a backup with nobody uploading took ${s(quiet.ms)} (${mb(quiet.bytes)})`);
    const tokens = await Promise.all(
      Array.from({ length: UPLOADERS }, (_, i) => signIn(server.base, `+2567${String(i + 1).padStart(8, '0')}`)),
    );
    let stopAt = Number.POSITIVE_INFINITY;
    const loops = tokens.map((token, i) =>
      uploader(server.base, token, photos[i % photos.length]!, () => performance.now() > stopAt),
    );
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const from = performance.now();
    const loaded = await backup(`loaded-${nice}`);
    const to = performance.now();
    ensure(loaded.bytes >= quiet.bytes, `the backup under load holding at least the quiet one's ${mb(quiet.bytes)}`);
    // As long again without a backup: the same farmers' uploads, for comparison.
    stopAt = to + Math.max(SECONDS * 1000, to - from);
    const all = (await Promise.all(loops)).flat();
    const during = all.filter((u) => u.at >= from && u.at <= to).map((u) => u.ms);
    const without = all.filter((u) => u.at < from || u.at > to + 2000).map((u) => u.ms);
    if (during.length === 0) failed = true;
    rows.push([
      String(nice),
      `${s(quiet.ms)} (${mb(quiet.bytes)})`,
      `${s(loaded.ms)} (${mb(loaded.bytes)})`,
      `${s(pct(without, 50))} / ${s(pct(without, 95))} (${without.length})`,
      `${s(pct(during, 50))} / ${s(pct(during, 95))}`,
      `${during.length} in ${s(to - from)}`,
    ]);
    console.log(`BACKUP_NICE=${nice}: ${rows.at(-1)!.join(', ')}; load ${os.loadavg()[0]!.toFixed(1)}`);
  } catch (err) {
    console.error(`BACKUP_NICE=${nice}: ${(err as Error).message}`);
    failed = true;
  } finally {
    await stopServerProcess(server.child);
  }
}
const head = [
  'BACKUP_NICE',
  'backup quiet',
  'backup under load',
  'uploads p50 / p95 without',
  'during the backup',
  'answered during it',
];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => ' --- ').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
