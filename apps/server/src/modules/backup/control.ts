import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { BackupResult } from './backup.service.ts';

/**
 * The embedded database is one process's (pglite-lock.ts), so the commands that need it while a server
 * runs ask that server: `npm run backup` for a copy, `npm run admin:create` for an administrator. Over
 * a Unix socket in DATA_DIR, which only the account that owns DATA_DIR can open (mode 0600). No network
 * port, no token: whoever may read DATA_DIR may already copy everything in it.
 */
export const controlSocket = (dataDir: string) => path.join(dataDir, 'backup.sock');

/** What a request other than a backup is answered with. */
export type ControlHandler = (body: unknown) => Promise<{ status: number; body: object }>;

const MAX_BODY = 16 * 1024;

/** Serves backup requests (and `POST /admin` when given) on DATA_DIR's socket until the returned stop is called. */
export function startBackupControl(
  dataDir: string,
  take: (out: string) => Promise<BackupResult>,
  log: (msg: string, err?: unknown) => void,
  more: { admin?: ControlHandler } = {},
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
    const url = new URL(req.url ?? '/', 'http://local');
    if (req.method === 'POST' && url.pathname === '/admin' && more.admin) {
      const admin = more.admin;
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        text += c;
        if (text.length > MAX_BODY) req.destroy();
      });
      req.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return reply(400, { error: 'POST /admin takes a JSON body' });
        }
        admin(body)
          .then((r) => reply(r.status, r.body))
          .catch((err: Error) => {
            log('administrator not created', err);
            reply(500, { error: err.message });
          });
      });
      return;
    }
    const out = url.searchParams.get('out');
    if (req.method !== 'POST' || url.pathname !== '/backup' || !out || !path.isAbsolute(out)) {
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
 * Sends one request to the server that has DATA_DIR's embedded database open. Null when no server
 * answers there (none runs).
 */
function askServer(
  dataDir: string,
  target: string,
  body?: object,
): Promise<{ status: number; body: { error?: string } & Record<string, unknown> } | null> {
  const socket = controlSocket(dataDir);
  if (!fs.existsSync(socket)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: socket, method: 'POST', path: target }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') });
        } catch {
          reject(new Error(`The running server gave an unreadable answer (${res.statusCode})`));
        }
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A socket file without a server behind it: a process that died.
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve(null);
      else reject(err);
    });
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/**
 * Asks the running server to write a backup at `out`. Null when no server answers there (none runs);
 * throws with the server's reason when it could not.
 */
export async function requestBackup(dataDir: string, out: string): Promise<BackupResult | null> {
  const answer = await askServer(dataDir, `/backup?out=${encodeURIComponent(out)}`);
  if (!answer) return null;
  if (answer.status === 200) return answer.body as unknown as BackupResult;
  throw new Error(`The running server could not take the backup: ${answer.body.error ?? answer.status}`);
}

/**
 * Asks the running server to make an administrator. Null when no server answers; `{ problem }` when the
 * input was refused (the server's words), else the new account.
 */
export async function requestAdmin(
  dataDir: string,
  input: object,
): Promise<{ id: number; username: string } | { problem: string } | null> {
  const answer = await askServer(dataDir, '/admin', input);
  if (!answer) return null;
  if (answer.status === 201) return answer.body as unknown as { id: number; username: string };
  if (answer.status === 400) return { problem: String(answer.body.error) };
  throw new Error(`The running server could not make the administrator: ${answer.body.error ?? answer.status}`);
}
