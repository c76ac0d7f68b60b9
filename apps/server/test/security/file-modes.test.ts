import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBackupCli } from '../../src/cli/backup.ts';
import { createBackupSchedule } from '../../src/modules/backup/backup.schedule.ts';
import { createTestApp, openTestDatabase } from '../support/app.ts';
import { type Proc, startProcess, stopProcess, waitReady } from '../support/processes.ts';

/**
 * The embedded database and its secrets were readable and writable by every account on the machine:
 * PGlite writes a new data directory's files 0666 whatever the umask (969 of 1,364 files), its folders
 * 0755, and backups were 0644 in a 0755 folder (docs/decisions/0125). DATA_DIR and BACKUP_DIR must be
 * 0700 and every file in them 0600: after the database opens, after a server starts, for every backup
 * (asked for by `npm run backup` or scheduled) and after a restore.
 */

/** Every folder not 0700 and every other entry (files, the control socket) not 0600 under `root`, with its mode. */
function loose(root: string): string[] {
  const found: string[] = [];
  const visit = (p: string) => {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return;
    const mode = stat.mode & 0o777;
    if (mode !== (stat.isDirectory() ? 0o700 : 0o600))
      found.push(`${path.relative(root, p) || '.'} ${mode.toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
  };
  visit(root);
  return found;
}

const sink = () => {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += chunk;
      done();
    },
  });
  return { stream, text: () => text };
};

const PORT = 19_000 + Math.floor(Math.random() * 1_000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-modes-'));
let umask: number;
// The usual shell's umask: group and others may read what is made without a mode of its own.
beforeEach(() => {
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('files of the embedded database, the data directory and the backups', { timeout: 240_000 }, () => {
  it('are the owner’s alone once the embedded database is open, and after it wrote and closed', async () => {
    const dir = path.join(tmp, 'opened', 'db');
    fs.mkdirSync(path.dirname(dir), { mode: 0o700 });
    // Loaded from a saved data directory, as a restore and every test's database are: PGlite writes it 0666.
    const { database, drop } = await openTestDatabase({ pgliteDir: dir });
    try {
      expect(loose(path.dirname(dir))).toEqual([]);
      // New relation files, WAL written and a checkpoint: PGlite creates these itself while it runs.
      await database.execute('create table modes_probe (x text)');
      await database.execute(
        'insert into modes_probe select repeat(md5(g::text), 20) from generate_series(1, 20000) g',
      );
      await database.execute('checkpoint');
      expect(loose(dir)).toEqual([]);
    } finally {
      await drop();
    }
    expect(loose(dir)).toEqual([]);
  });

  it('are the owner’s alone after a server starts, for a backup through it, and after a restore', async () => {
    const dataDir = path.join(tmp, 'installation');
    // What an older Kutu left: a readable DATA_DIR and photo.
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'uploads', 'old.jpg'), 'jpeg', { mode: 0o644 });
    const env = { DATA_DIR: dataDir, NODE_ENV: 'development', JOBS: 'off', LOG_LEVEL: 'warn', WEATHER_URL: 'off' };
    let server: Proc | undefined = startProcess('modes-server', 'apps/server/src/main.ts', PORT, env);
    const archive = path.join(tmp, 'archives', 'kutu.tar.gz');
    try {
      await waitReady(server, 180_000);
      expect(loose(dataDir)).toEqual([]);

      const out = sink();
      const err = sink();
      const code = await runBackupCli('backup', ['--out', archive], { env, stdout: out.stream, stderr: err.stream });
      expect(code, err.text()).toBe(0);
      expect(out.text()).toMatch(/^Backup written/);
      expect(loose(path.dirname(archive))).toEqual([]);
    } finally {
      if (server) await stopProcess(server);
      server = undefined;
    }
    expect(loose(dataDir)).toEqual([]);

    const err = sink();
    const code = await runBackupCli('restore', ['--from', archive, '--force'], {
      env,
      stdout: sink().stream,
      stderr: err.stream,
    });
    expect(code, err.text()).toBe(0);
    expect(fs.readFileSync(path.join(dataDir, 'db', 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
    expect(loose(dataDir)).toEqual([]);
  });

  it('are the owner’s alone for every scheduled backup, and make an older Kutu’s archives so too', async () => {
    const backupDir = path.join(tmp, 'scheduled');
    fs.mkdirSync(backupDir, { mode: 0o755 });
    fs.chmodSync(backupDir, 0o755);
    fs.writeFileSync(path.join(backupDir, 'kutu-20240101-000000.tar.gz'), 'old', { mode: 0o644 });
    const t = await createTestApp({ env: { BACKUP_DIR: backupDir } });
    try {
      const schedule = createBackupSchedule({
        db: t.deps.database.db,
        database: t.deps.database,
        storage: t.deps.storage,
        config: t.deps.config,
        clock: t.clock,
      });
      const row = await schedule.takeScheduled();
      expect(row, row?.error ?? '').toMatchObject({ verified: true });
      expect(fs.readdirSync(backupDir)).toHaveLength(2);
      expect(loose(backupDir)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
