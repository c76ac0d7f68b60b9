import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '@kutu/contract';
import { openDatabase } from '../db/client.ts';
import { farmerBody } from '../../test/support/auth-flow.ts';
import { everyRow } from '../../test/support/installation.ts';
import { type Proc, startProcess, stopProcess, waitReady } from '../../test/support/processes.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const CLI = path.join(ROOT, 'apps/server/src/cli/backup.ts');
const run = promisify(execFile);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** `npm run backup|restore -- …` as an operator runs it, with DATA_DIR as the installation. */
async function cli(dataDir: string, ...args: string[]) {
  const { DATABASE_URL: _db, STORAGE_URL: _storage, ...inherited } = process.env;
  const env = { ...inherited, NODE_ENV: 'test', DATA_DIR: dataDir };
  return run(process.execPath, [CLI, ...args], { env, cwd: ROOT }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

/** The embedded database's rows (outside the job queue's own tables, which its upkeep keeps changing). */
async function appRows(dataDir: string) {
  const db = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    const rows = await everyRow(db);
    return Object.fromEntries(Object.entries(rows).filter(([table]) => table.startsWith('public.')));
  } finally {
    await db.close();
  }
}

describe('npm run backup / restore with the embedded database, as an operator runs them', () => {
  let tmp: string;
  let source: string;
  let server: Proc;
  let archive: string;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-cli-backup-'));
    source = path.join(tmp, 'source');
    archive = path.join(tmp, 'archives', 'kutu.tar.gz');
    server = startProcess('server', 'apps/server/src/main.ts', await freePort(), {
      NODE_ENV: 'test',
      DATA_DIR: source,
      LOG_LEVEL: 'warn',
      MAIL_TRANSPORT: 'log',
      BACKUP_EVERY_HOURS: '0',
      WEB_DIST: path.join(tmp, 'no-web'),
    });
    // A first start migrates a new embedded database: over 90 s on this project's loaded 2-core machine.
    await waitReady(server, 240_000);
  }, 300_000);
  afterAll(async () => {
    await stopProcess(server);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('takes the copy through the running server, refuses to restore under it, and restores once it is stopped', async () => {
    const signup = await fetch(`${server.base}${api.auth.registerFarmer}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(farmerBody()),
    });
    expect(signup.status).toBe(201);
    const photo = path.join(source, 'uploads', 'analyses', 'leaf.jpg');
    fs.mkdirSync(path.dirname(photo), { recursive: true });
    fs.writeFileSync(photo, 'a leaf');

    const backup = await cli(source, 'backup', '--out', archive);
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toMatch(
      /^Backup written: .*kutu\.tar\.gz \(\d+\.\d MB, \d+ files, \d+\.\d s\): 1 account, 0 analyses, 1 photo\.\n$/,
    );
    expect(backup.code).toBe(0);

    const underServer = await cli(source, 'restore', '--from', archive, '--force');
    expect(underServer.code).toBe(1);
    expect(underServer.stderr).toMatch(/^Nothing was changed: The embedded database is open in another Kutu process/);

    await stopProcess(server);
    const restoredDir = path.join(tmp, 'restored');
    const restore = await cli(restoredDir, 'restore', '--from', archive);
    expect(restore.stderr).toBe('');
    expect(restore.stdout).toMatch(/files match their checksums[\s\S]*Restored the backup taken/);
    expect(await appRows(restoredDir)).toEqual(await appRows(source));
    expect(fs.readFileSync(path.join(restoredDir, 'uploads', 'analyses', 'leaf.jpg'), 'utf8')).toBe('a leaf');

    const again = await cli(restoredDir, 'restore', '--from', archive);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Nothing was changed: This installation is not empty .*--force/);
  }, 240_000);

  it('refuses to back up what is not an installation, and creates nothing', async () => {
    const elsewhere = path.join(tmp, 'a-shell-elsewhere');
    fs.mkdirSync(elsewhere);
    const out = path.join(elsewhere, 'x.tar.gz');
    const { DATA_DIR: _dir, DATABASE_URL: _db, STORAGE_URL: _storage, ...inherited } = process.env;
    const noDataDir = await run(process.execPath, [CLI, 'backup', '--out', out], {
      env: { ...inherited, NODE_ENV: 'test' },
      cwd: elsewhere,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(noDataDir.code).toBe(1);
    expect(noDataDir.stderr).toMatch(/^Nothing was backed up: DATA_DIR is not set\b.*\n$/);
    const empty = path.join(tmp, 'empty-data-dir');
    fs.mkdirSync(empty);
    const notInstalled = await cli(empty, 'backup', '--out', out);
    expect(notInstalled.code).toBe(1);
    expect(notInstalled.stderr).toMatch(/^Nothing was backed up: .*no Kutu installation/);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    expect(fs.readdirSync(empty)).toEqual([]);
  }, 120_000);

  it('leaves either the old installation or the restored one when a restore is killed, and no scratch folders after the next run', async () => {
    const target = path.join(tmp, 'killed');
    const { DATABASE_URL: _db, STORAGE_URL: _storage, ...inherited } = process.env;
    const child = spawn(process.execPath, [CLI, 'restore', '--from', archive], {
      env: { ...inherited, NODE_ENV: 'test', DATA_DIR: target },
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Killed (SIGKILL: no clean-up of its own) once it has checked the archive and starts changing things.
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('files match their checksums')) child.kill('SIGKILL');
      });
      child.on('exit', () => resolve());
    });
    const again = await cli(target, 'restore', '--from', archive);
    expect(again.stderr).toMatch(/^$|^Nothing was changed: This installation is not empty/);
    expect(await appRows(target)).toEqual(await appRows(path.join(tmp, 'restored')));
    expect(fs.readFileSync(path.join(target, 'uploads', 'analyses', 'leaf.jpg'), 'utf8')).toBe('a leaf');
    expect(fs.readdirSync(target).filter((n) => n.startsWith('.restore') || n.includes('restor'))).toEqual([]);
  }, 120_000);

  it('refuses a damaged or cut-off archive in one line that says so', async () => {
    const whole = fs.readFileSync(archive);
    const cut = path.join(tmp, 'cut.tar.gz');
    fs.writeFileSync(cut, whole.subarray(0, whole.length - 200));
    const empty = path.join(tmp, 'empty');
    const res = await cli(empty, 'restore', '--from', cut);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^Nothing was changed: .*cut\.tar\.gz cannot be restored because it .*\.\n$/);
    expect(fs.existsSync(path.join(empty, 'db'))).toBe(false);
    const usage = await cli(empty, 'restore');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('Usage: npm run restore -- --from FILE [--force]\n');
  }, 120_000);
});
