import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

/**
 * A Kutu server as an operator starts it (`node apps/server/src/main.ts`) with `env` over quiet bench
 * defaults (no scheduled backup, no rate limit, no web app), once it answers its readiness check.
 */
export async function startServerProcess(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/server/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      MAIL_TRANSPORT: 'log',
      BACKUP_EVERY_HOURS: '0',
      RATE_LIMIT_MAX: '100000',
      AUTH_RATE_LIMIT_MAX: '100000',
      WEB_DIST: path.join(os.tmpdir(), 'kutu-bench-no-web'),
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  // A loaded machine takes minutes to start a server.
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error('the server stopped');
    const ok = await fetch(`${base}/api/health/ready/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, base };
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not get ready');
}

export const stopServerProcess = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
