/**
 * Backup and restore times (npm run bench:backup).
 *
 * One installation of BENCH_FARMERS farmers (default 5,000) with BENCH_PHOTOS analyses (default 1,000),
 * each with its stored photo: the base training images scaled to the 1,600-pixel long side the app keeps
 * (lib/image-upload.ts). Then, each printed with sizes and seconds:
 * - embedded PGlite: `npm run backup`'s work (takeBackup) and a restore into an empty DATA_DIR;
 * - PostgreSQL (a temporary server with WAL archiving on, as compose.yaml sets it up): the same with
 *   pg_dump / pg_restore, and point-in-time recovery: a base backup (pg_basebackup), more writes, then a
 *   new server from the base backup replaying the archived WAL up to a chosen moment.
 * Figures, not a test: the machine's other load shows in them.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import pg from 'pg';
import { postgresBinDir } from '../scripts/system-deps.ts';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { createLocalStorage } from '../apps/server/src/adapters/storage.ts';
import { restoreBackup, takeBackup } from '../apps/server/src/modules/backup/backup.service.ts';

const FARMERS = Number(process.env.BENCH_FARMERS ?? 5_000);
const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 1_000);
const RUST3 = path.resolve(import.meta.dirname, '../datasets/rust3/common_rust');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-bench-backup-'));
// The postgres user (PostgreSQL's own folder below) must be able to pass through.
fs.chmodSync(tmp, 0o711);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const since = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
const sizeOf = (dir: string): number =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .reduce((sum, d) => sum + fs.statSync(path.join(d.parentPath, d.name)).size, 0);

/** The photos once (scaled like the app's), written into each installation's uploads. */
async function photoSet(): Promise<Buffer[]> {
  const names = fs
    .readdirSync(RUST3)
    .filter((n) => n.endsWith('.jpg'))
    .slice(0, 50);
  return Promise.all(
    names.map((n) => sharp(path.join(RUST3, n)).resize(1600, 1600, { fit: 'inside' }).jpeg({ quality: 85 }).toBuffer()),
  );
}

async function populate(database: Database, dataDir: string, photos: Buffer[]) {
  await database.execute(
    `insert into users (email, username, role, phone, password_hash, activated_at)
     select 'f' || i || '@example.com', 'farmer' || i, 'farmer', '+2567' || lpad(i::text, 8, '0'), 'x', now()
     from generate_series(1, $1::int) i`,
    [FARMERS],
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
  const dir = path.join(dataDir, 'uploads', 'analyses', 'bench');
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 1; i <= PHOTOS; i++) {
    // A few bytes differ per file, as every farmer's photo does.
    fs.writeFileSync(path.join(dir, `${i}.jpg`), Buffer.concat([photos[i % photos.length]!, Buffer.from(String(i))]));
  }
}

async function roundTrip(
  label: string,
  database: Database,
  dataDir: string,
  target: () => Promise<{ url?: string; dataDir: string }>,
) {
  const archive = path.join(tmp, `${label}.tar.gz`);
  let t = performance.now();
  const made = await takeBackup(
    { database, storage: createLocalStorage(path.join(dataDir, 'uploads')), dataDir },
    archive,
  );
  console.log(`${label}: backup ${since(t)}, archive ${mb(made.size)} (${made.files} files)`);
  await database.close();
  const into = await target();
  t = performance.now();
  await restoreBackup(archive, {
    databaseUrl: into.url,
    storage: createLocalStorage(path.join(into.dataDir, 'uploads')),
    dataDir: into.dataDir,
  });
  console.log(`${label}: restore into an empty installation ${since(t)}`);
}

// --- a PostgreSQL server of our own, with WAL archiving (as root, it runs as the postgres user) ---
const bin = postgresBinDir();
if (!bin) throw new Error('PostgreSQL is not installed');
const asRoot = process.getuid?.() === 0;
const uid = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
const owner = asRoot ? { uid: uid('-u'), gid: uid('-g') } : {};
const runPg = (cmd: string, args: string[]) =>
  execFileSync(asRoot ? 'runuser' : cmd, asRoot ? ['-u', 'postgres', '--', cmd, ...args] : args, { stdio: 'pipe' });
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
const pgRoot = path.join(tmp, 'pg');
fs.mkdirSync(pgRoot);
if (asRoot) execFileSync('chown', ['postgres:postgres', pgRoot]);
const walArchive = path.join(pgRoot, 'wal-archive');
runPg('mkdir', [walArchive]);

async function startPostgres(dataDir: string): Promise<{ url: string; child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(`${bin}/postgres`, ['-D', dataDir, '-p', String(port), '-k', pgRoot, '-h', '127.0.0.1'], {
    stdio: 'ignore',
    ...owner,
  });
  const url = `postgres://kutu@127.0.0.1:${port}/postgres`;
  for (let i = 0; ; i++) {
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      return { url, child, port };
    } catch {
      if (i > 600) throw new Error('PostgreSQL did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
const stopPostgres = (p: { child: ChildProcess }) =>
  new Promise<void>((resolve) => {
    p.child.on('exit', () => resolve());
    p.child.kill('SIGINT');
  });

async function query(url: string, text: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

console.log(`${FARMERS} farmers, ${PHOTOS} analyses with a photo each; load ${os.loadavg()[0]!.toFixed(2)}`);
const photos = await photoSet();
console.log(`photos: ${mb(photos.reduce((s, p) => s + p.length, 0) / photos.length)} on average`);

// --- PGlite ---
{
  const dataDir = path.join(tmp, 'pglite-source');
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  await database.migrate();
  await populate(database, dataDir, photos);
  console.log(
    `pglite: database ${mb(sizeOf(path.join(dataDir, 'db')))}, photos ${mb(sizeOf(path.join(dataDir, 'uploads')))}`,
  );
  await roundTrip('pglite', database, dataDir, async () => ({ dataDir: path.join(tmp, 'pglite-restored') }));
}

// --- PostgreSQL: pg_dump / pg_restore, then point-in-time recovery ---
const primaryDir = path.join(pgRoot, 'primary');
runPg(`${bin}/initdb`, ['-D', primaryDir, '-U', 'kutu', '--auth=trust', '-E', 'UTF8']);
fs.appendFileSync(
  path.join(primaryDir, 'postgresql.conf'),
  `\nwal_level = replica\narchive_mode = on\narchive_timeout = 60\narchive_command = 'test ! -f ${walArchive}/%f && cp %p ${walArchive}/%f'\n`,
);
const primary = await startPostgres(primaryDir);
try {
  const dataDir = path.join(tmp, 'pg-source');
  const database = await openDatabase({ url: primary.url });
  await database.migrate();
  await populate(database, dataDir, photos);
  const [{ size }] = await query(primary.url, 'select pg_database_size(current_database())::bigint as size');
  console.log(`postgres: database ${mb(Number(size))}`);
  await roundTrip('postgres', database, dataDir, async () => {
    await query(primary.url, 'create database restored');
    return { url: primary.url.replace(/\/postgres$/, '/restored'), dataDir: path.join(tmp, 'pg-restored') };
  });

  // Point-in-time recovery: base backup, more writes, a moment to go back to, writes after it.
  const base = path.join(pgRoot, 'base');
  let t = performance.now();
  runPg(`${bin}/pg_basebackup`, ['-d', primary.url, '-D', base, '-X', 'stream', '-c', 'fast']);
  console.log(`pitr: base backup (pg_basebackup) ${since(t)}, ${mb(sizeOf(base))}`);
  await query(
    primary.url,
    `insert into farmer_profiles (user_id, farm_location, farm_size)
    select id, 'Gulu', 1 from users where id not in (select user_id from farmer_profiles)`,
  );
  await query(primary.url, `update farmer_profiles set farm_location = 'Gulu' where user_id % 2 = 0`);
  const [{ at }] = await query(primary.url, `select now()::text as at`);
  await new Promise((r) => setTimeout(r, 1100));
  await query(primary.url, `update farmer_profiles set farm_location = 'lost on purpose'`);
  await query(primary.url, `select pg_switch_wal()`);
  await new Promise((r) => setTimeout(r, 2000));
  console.log(`pitr: WAL archived since the base backup ${mb(sizeOf(walArchive))}`);

  const recovered = path.join(pgRoot, 'recovered');
  t = performance.now();
  runPg('cp', ['-a', base, recovered]);
  fs.appendFileSync(
    path.join(recovered, 'postgresql.auto.conf'),
    `\narchive_mode = off\nrestore_command = 'cp ${walArchive}/%f %p'\nrecovery_target_time = '${at}'\nrecovery_target_action = 'promote'\n`,
  );
  runPg('touch', [path.join(recovered, 'recovery.signal')]);
  const second = await startPostgres(recovered);
  for (;;) {
    const [{ r }] = await query(second.url, 'select pg_is_in_recovery() as r');
    if (!r) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`pitr: restore to a moment (copy base backup, replay WAL, promote) ${since(t)}`);
  const rows = await query(
    second.url,
    `select count(*) filter (where farm_location = 'lost on purpose')::int as lost,
            count(*) filter (where farm_location = 'Gulu')::int as kept, count(*)::int as n from farmer_profiles`,
  );
  console.log(
    `pitr: ${rows[0].n} farmer profiles back, ${rows[0].kept} with the change made before the moment, ${rows[0].lost} with the one after it (want 0)`,
  );
  await stopPostgres(second);
} finally {
  await stopPostgres(primary);
  fs.rmSync(tmp, { recursive: true, force: true });
}
