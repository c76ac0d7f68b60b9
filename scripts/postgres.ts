import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { postgresBinDir } from './system-deps.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts a throwaway PostgreSQL server on a free local port (as the `postgres` user when we are root,
 * because PostgreSQL refuses to run as root). Returns its URL and a stop function, whose promise settles once
 * the server has exited and its folder is removed: a caller whose process is ended from outside (a vitest
 * worker: its exit hooks do not run) awaits it, or the folder stays behind.
 */
const numericId = (flag: '-u' | '-g') => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());

export async function startTemporaryPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' });
    else execFileSync(cmd, args, { stdio: 'pipe' });
  };
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  fs.chmodSync(dir, 0o700);
  const dataDir = path.join(dir, 'data');
  run(`${bin}/initdb`, ['-D', dataDir, '-U', 'kutu', '--auth=trust', '-E', 'UTF8']);
  const port = await freePort();
  const args = ['-D', dataDir, '-p', String(port), '-k', dir, '-h', '127.0.0.1', '-c', 'fsync=off'];
  // As root, postgres runs under the postgres user's ids but is still our own child: a stop signal
  // reaches it (sent to `runuser`, it did not, and each run left a server behind).
  const owner = asRoot ? { uid: numericId('-u'), gid: numericId('-g') } : {};
  const child = spawn(`${bin}/postgres`, args, { stdio: 'ignore', ...owner });
  const url = `postgres://kutu@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > deadline) throw new Error('PostgreSQL did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 500));
  return {
    url,
    stop: () => {
      const exited = child.exitCode !== null || child.signalCode !== null;
      const stopped = exited ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGINT');
      // Removed once the server has stopped, or as this process exits if that comes first: a timer alone
      // let a bench that exited at once leave its folder behind (gigabytes after a national-size run).
      const remove = () => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      process.once('exit', remove);
      return stopped.then(() => {
        process.removeListener('exit', remove);
        remove();
      });
    },
  };
}
