import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { BackupResult } from './backup.service.ts';

/**
 * The embedded database is one process's (pglite-lock.ts), so `npm run backup` asks the running server
 * to take the copy: over a Unix socket in DATA_DIR, which only the account that owns DATA_DIR can open
 * (mode 0600). No network port, no token: whoever may read DATA_DIR may already copy everything in it.
 */
export const controlSocket = (dataDir: string) => path.join(dataDir, 'backup.sock');

/** Serves backup requests on DATA_DIR's socket until the returned stop is called. */
export function startBackupControl(
  dataDir: string,
  take: (out: string) => Promise<BackupResult>,
  log: (msg: string, err?: unknown) => void,
): () => Promise<void> {
  const socket = controlSocket(dataDir);
  // This process holds the database, so a socket left here is a dead process's.
  fs.rmSync(socket, { force: true });
  let busy = false;
  const server = http.createServer((req, res) => {
    const reply = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const out = new URL(req.url ?? '/', 'http://local').searchParams.get('out');
    if (req.method !== 'POST' || !out || !path.isAbsolute(out)) {
      return reply(400, { error: 'POST /backup?out=<absolute path>' });
    }
    if (busy) return reply(409, { error: 'A backup is being taken already; try again when it has finished' });
    busy = true;
    take(out)
      .then((result) => reply(200, result))
      .catch((err: Error) => {
        log('backup failed', err);
        reply(500, { error: err.message });
      })
      .finally(() => {
        busy = false;
      });
  });
  server.on('error', (err) => log(`backups cannot be requested on ${socket}`, err));
  server.listen(socket, () => fs.chmodSync(socket, 0o600));
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socket, { force: true });
    });
}

/**
 * Asks the server that has DATA_DIR's embedded database open to write a backup at `out`. Null when no
 * server answers there (none runs); throws with the server's reason when it could not.
 */
export function requestBackup(dataDir: string, out: string): Promise<BackupResult | null> {
  const socket = controlSocket(dataDir);
  if (!fs.existsSync(socket)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath: socket, method: 'POST', path: `/backup?out=${encodeURIComponent(out)}` },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          let body: BackupResult & { error?: string };
          try {
            body = JSON.parse(text || '{}');
          } catch {
            return reject(new Error(`The running server gave an unreadable answer (${res.statusCode})`));
          }
          if (res.statusCode === 200) resolve(body);
          else reject(new Error(`The running server could not take the backup: ${body.error ?? res.statusCode}`));
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A socket file without a server behind it: a process that died.
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve(null);
      else reject(err);
    });
    req.end();
  });
}
