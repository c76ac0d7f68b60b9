import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from '../../db/client.ts';

const run = promisify(execFile);

/** The dump file inside the archive, per database kind. */
export const DUMP_FILE = { pglite: 'database/pglite-datadir.tar.gz', postgres: 'database/postgres.dump' } as const;

/**
 * PostgreSQL's client tools: PG_BIN_DIR if set, else the newest installed Debian version, else PATH.
 * pg_dump must be at least the server's major version; it says so itself when it is not.
 */
export function pgTool(name: 'pg_dump' | 'pg_restore' | 'psql'): string {
  if (process.env.PG_BIN_DIR) return path.join(process.env.PG_BIN_DIR, name);
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length ? path.join(root, versions[0]!, 'bin', name) : name;
}

/** The connection for a tool, with the password in its environment rather than on its command line. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: { ...process.env, ...(password && { PGPASSWORD: password }) } };
}

async function tool(name: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv) {
  try {
    await run(pgTool(name), args, { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') {
      throw new Error(
        `${name} is not installed: install PostgreSQL's client tools (postgresql-client), or set PG_BIN_DIR`,
      );
    }
    throw new Error(`${name} failed: ${(e.stderr ?? e.message).trim().split('\n').slice(0, 3).join(' ')}`);
  }
}

/** A query inside the dump's snapshot: its rows. */
export type SnapshotQuery = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Writes a consistent copy of the database to `file`, and returns what `count` reads of that same copy:
 * PGlite's own data-directory dump, taken in the process that has it open (after a checkpoint, between
 * two queries); PostgreSQL's `pg_dump`, which reads one snapshot while the servers keep writing. On
 * PostgreSQL that snapshot is exported by a repeatable-read transaction of ours and `count` runs in it,
 * so an archive's last line counts the rows the dump holds, not those of a moment before it.
 */
export async function dumpDatabase<T>(database: Database, file: string, count: (query: SnapshotQuery) => Promise<T>) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (database.kind === 'pglite') {
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const counted = await count(
      async (text, values) => (await client.query<Record<string, unknown>>(text, values)).rows,
    );
    await client.query('checkpoint');
    const dump = await client.dumpDataDir('gzip');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return counted;
  }
  if (!database.url) throw new Error('The PostgreSQL URL is needed to dump the database');
  const { dbname, env } = connection(database.url);
  return withPg(database.url, async (client) => {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const counted = await count(async (text, values) => (await client.query(text, values)).rows);
    await tool(
      'pg_dump',
      [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--snapshot=${rows[0]!.snapshot}`,
        `--file=${file}`,
        `--dbname=${dbname}`,
      ],
      env,
    );
    await client.query('commit');
    return counted;
  });
}

/** Schemas a restore replaces: everything but PostgreSQL's own. */
const USER_SCHEMAS = `select nspname from pg_namespace
  where nspname not like 'pg\\_%' and nspname <> 'information_schema' order by 1`;
/** A Kutu database: the migrations' own table (drizzle-kit's) holds at least one migration. */
const MIGRATED = `select to_regclass('drizzle.__drizzle_migrations') is not null as ok`;
const MIGRATIONS = 'select count(*)::int as n from drizzle.__drizzle_migrations';
const HOLDS = `select (select count(*) from users) + (select count(*) from analyses) as n`;

async function withPg<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Whether an embedded data directory is there at all (PostgreSQL writes PG_VERSION first). */
export const isPgliteDir = (dir: string) => fs.existsSync(path.join(dir, 'PG_VERSION'));

/**
 * What a database is: `none` (no Kutu migration ever ran on it: not an installation), `empty` (a Kutu
 * database without an account or an analysis) or `data`. Opens nothing that is not there.
 */
export async function databaseState(target: { pgliteDir?: string; url?: string }): Promise<'none' | 'empty' | 'data'> {
  const ask = async (query: (text: string) => Promise<Record<string, unknown>[]>) => {
    if (!(await query(MIGRATED))[0]?.ok) return 'none';
    if (Number((await query(MIGRATIONS))[0]?.n) === 0) return 'none';
    return Number((await query(HOLDS))[0]?.n) > 0 ? 'data' : 'empty';
  };
  if (target.url) return withPg(target.url, (c) => ask(async (q) => (await c.query(q)).rows));
  const dir = target.pgliteDir!;
  if (!isPgliteDir(dir)) return 'none';
  const client = new PGlite(dir);
  try {
    return await ask(async (q) => (await client.query<Record<string, unknown>>(q)).rows);
  } finally {
    await client.close();
  }
}

/** The other sessions on the database (a running Kutu's pool, a psql), by application name. */
export async function otherSessions(url: string): Promise<string[]> {
  return withPg(url, async (c) => {
    const { rows } = await c.query<{ app: string }>(
      `select coalesce(nullif(application_name, ''), 'unnamed') as app from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    return rows.map((r) => r.app);
  });
}

/** Loads a PGlite dump into `dir`, a directory no process has open (a restore's scratch one). */
export async function loadPgliteDump(file: string, dir: string): Promise<void> {
  let tar: Buffer;
  try {
    // Unpacked here: PGlite's own gunzip leaves a damaged dump's error unhandled.
    tar = gunzipSync(fs.readFileSync(file));
  } catch (err) {
    throw new Error(`the database dump cannot be read (${(err as Error).message})`);
  }
  fs.mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir, { loadDataDir: new Blob([new Uint8Array(tar)]) });
  await client.waitReady;
  await client.query('checkpoint');
  await client.close();
}

/** The mark a restore leaves in the PostgreSQL database it replaced, in the same transaction. */
export const restoreMark = (id: string) => `kutu-restore ${id}`;
export async function readRestoreMark(url: string): Promise<string | null> {
  return withPg(url, async (c) => {
    const { rows } = await c.query<{ mark: string | null }>(
      `select obj_description(to_regnamespace('public'), 'pg_namespace') as mark`,
    );
    return rows[0]?.mark ?? null;
  });
}

/** Resolves with the exit code, after the process's output has ended. */
const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

/**
 * Replaces the PostgreSQL database with the dump in one transaction: psql runs the old schemas' drop, the
 * dump as pg_restore writes it out as SQL, and the restore's mark; COMMIT is sent only after pg_restore
 * finished well. pg_restore failing, psql stopping at an error, or this process killed: psql ends inside
 * the transaction and PostgreSQL rolls it back, the old data untouched.
 */
export async function restorePostgres(file: string, url: string, mark: string): Promise<void> {
  const schemas = await withPg(url, async (c) => (await c.query<{ nspname: string }>(USER_SCHEMAS)).rows);
  const { dbname, env } = connection(url);
  const psql = spawn(pgTool('psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', `--dbname=${dbname}`], {
    env,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const dump = spawn(pgTool('pg_restore'), ['--no-owner', '--no-privileges', '--file=-', file], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Heard from the start: psql may have ended (and closed) before pg_restore does.
  const [psqlEnded, dumpEnded] = [exited(psql), exited(dump)];
  const errors = { psql: '', dump: '' };
  psql.stderr?.on('data', (d) => {
    errors.psql += d;
  });
  dump.stderr?.on('data', (d) => {
    errors.dump += d;
  });
  // psql may stop (an error) while pg_restore still writes: the broken pipe is its error, not ours.
  psql.stdin?.on('error', () => {});
  for (const child of [psql, dump]) {
    child.on('error', (err: NodeJS.ErrnoException) => {
      errors[child === psql ? 'psql' : 'dump'] +=
        err.code === 'ENOENT' ? `${err.message} (install postgresql-client)` : err.message;
    });
  }
  // psql stopped at an error: nothing reads pg_restore's output any more, and it would wait forever on
  // the full pipe (a restore onto a read-only database once never ended). It has nothing left to give.
  psql.on('exit', () => {
    if (dump.exitCode !== null || dump.signalCode !== null) return;
    dump.stdout?.unpipe();
    dump.stdout?.resume();
    dump.kill();
  });
  const drop = schemas.map((s) => `DROP SCHEMA "${s.nspname.replaceAll('"', '""')}" CASCADE;`).join('\n');
  psql.stdin?.write(`BEGIN;\n${drop}\nCREATE SCHEMA public;\n`);
  dump.stdout?.pipe(psql.stdin!, { end: false });
  const dumped = await dumpEnded;
  if (dumped === 0) psql.stdin?.end(`\nCOMMENT ON SCHEMA public IS '${mark.replaceAll("'", "''")}';\nCOMMIT;\n`);
  else psql.stdin?.end();
  const ran = await psqlEnded;
  const first = (text: string) => text.trim().split('\n').slice(0, 3).join(' ');
  // psql's error first: when it stopped, pg_restore was ended for it.
  if (ran !== 0) throw new Error(`psql failed: ${first(errors.psql) || `exit ${ran}`}`);
  if (dumped !== 0) throw new Error(`pg_restore failed: ${first(errors.dump) || `exit ${dumped}`}`);
}
