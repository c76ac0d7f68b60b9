import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDatabase, type TestContext } from '../../test/support/app.ts';
import type { Database } from '../db/client.ts';
import { pgliteHolder } from '../db/pglite-lock.ts';
import { users } from '../db/schema/index.ts';
import { runAdminCreate } from './admin-create.ts';
import { api, vettingApi } from '@kutu/contract';
import { startProcess, stopProcess, waitReady } from '../../test/support/processes.ts';

const PASSWORD = 'Adm1n!Kutu-2026';

/** Runs the real command with `stdin` piped in: over `database`, or over what `env` names. */
async function runWith(io: { database?: Database; env: NodeJS.ProcessEnv }, args: string[], stdin: string) {
  let out = '';
  let err = '';
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, done) {
        append(String(chunk));
        done();
      },
    });
  const code = await runAdminCreate(args, {
    ...io,
    stdin: Readable.from([stdin]),
    stdout: sink((s) => (out += s)),
    stderr: sink((s) => (err += s)),
  });
  return { code, out, err };
}

/** Runs the real command over a test database. */
const run = (database: Database, args: string[], stdin: string) =>
  runWith({ database, env: { NODE_ENV: 'test', LOG_LEVEL: 'silent' } }, args, stdin);

describe('npm run admin:create (docs/decisions/0027)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let t: TestContext;

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    const made = await run(database, ['--email', 'Admin@Example.com', '--phone', '+256700123456'], `${PASSWORD}\n`);
    expect(made, made.err).toMatchObject({ code: 0 });
    expect(made.out).toContain('Administrator admin');
    // The app over the same database: the new admin signs in like any account.
    t = await createTestApp({ database });
  }, 180_000);
  afterAll(async () => {
    await t.close();
    await drop();
  });

  it('creates an active admin whose password is an argon2id hash, who signs in and lists applications', {
    timeout: 120_000,
  }, async () => {
    const [row] = await database.db.select().from(users).where(eq(users.email, 'admin@example.com'));
    expect(row).toMatchObject({ role: 'admin', username: 'admin', phone: '+256700123456' });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.activatedAt).not.toBeNull();

    const login = await t.app.inject({
      method: 'POST',
      url: api.auth.login,
      payload: { email: 'admin@example.com', password: PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    const { access, user } = login.json() as { access: string; user: { role: string; vetting: unknown } };
    expect(user).toMatchObject({ role: 'admin', vetting: null });
    const list = await t.app.inject({
      method: 'GET',
      url: vettingApi.of('expert').applications,
      headers: { authorization: `Bearer ${access}` },
    });
    expect(list.statusCode, list.body).toBe(200);
  });

  it('refuses a weak password, a taken address and missing options, saying why', { timeout: 120_000 }, async () => {
    const weak = await run(database, ['--email', 'two@example.com', '--phone', '+256700123457'], 'password\n');
    expect(weak.code).toBe(1);
    expect(weak.err).toMatch(/Password is (Too weak|Weak)/);
    const taken = await run(database, ['--email', 'admin@example.com', '--phone', '+256700123458'], `${PASSWORD}\n`);
    expect(taken).toMatchObject({ code: 1, err: expect.stringContaining('already exists') });
    const missing = await run(database, ['--email', 'three@example.com'], `${PASSWORD}\n`);
    expect(missing).toMatchObject({ code: 2, err: expect.stringContaining('Usage') });
    const admins = await database.db.select().from(users).where(eq(users.role, 'admin'));
    expect(admins).toHaveLength(1);
  });

  it('refuses in one line, exit 1, while the server holds the embedded database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-admin-lock-'));
    try {
      // The server's lock: a live process (this test's parent) has DATA_DIR/db open.
      fs.writeFileSync(path.join(dataDir, 'db.lock'), String(process.ppid));
      let err = '';
      const code = await runAdminCreate(['--email', 'second@example.com', '--phone', '+256700123499'], {
        env: { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir },
        stdin: Readable.from([`${PASSWORD}\n`]),
        stdout: new Writable({ write: (_c, _e, done) => done() }),
        stderr: new Writable({
          write(chunk, _enc, done) {
            err += String(chunk);
            done();
          },
        }),
      });
      expect(code).toBe(1);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toContain(`open in another Kutu process (pid ${process.ppid}`);
      expect(fs.existsSync(path.join(dataDir, 'db', 'PG_VERSION'))).toBe(false);
      // A lock left by a process that is gone (kill -9) is not a holder.
      fs.writeFileSync(path.join(dataDir, 'db.lock'), '2147483646');
      expect(pgliteHolder(path.join(dataDir, 'db'))).toBeNull();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // It once needed the server stopped: now the server that holds the embedded database makes the account.
  it("works beside a running server, which makes the account over DATA_DIR's control socket", {
    timeout: 240_000,
  }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-admin-beside-'));
    const server = startProcess('admin-beside', 'apps/server/src/main.ts', 18_900 + Math.floor(Math.random() * 90), {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    });
    try {
      await waitReady(server, 180_000);
      const command = (email: string, password: string) =>
        runWith(
          { env: { NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir } },
          ['--email', email, '--phone', '+256700123477'],
          `${password}\n`,
        );
      const weak = await command('boss@example.com', 'short');
      expect(weak.code).toBe(1);
      expect(weak.err).toContain('use at least 8 characters');
      const made = await command('boss@example.com', PASSWORD);
      expect(made, made.err).toMatchObject({ code: 0 });
      expect(made.out).toContain('created by the running server');
      const login = await fetch(`${server.base}${api.auth.login}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'boss@example.com', password: PASSWORD }),
      });
      expect(login.status).toBe(200);
      expect(((await login.json()) as { user: { role: string } }).user.role).toBe('admin');
    } finally {
      await stopProcess(server);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
