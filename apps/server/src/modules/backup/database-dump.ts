import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from '../../db/client.ts';
import { holdPgliteDir } from '../../db/pglite-lock.ts';

const run = promisify(execFile);

/** The dump file inside the archive, per database kind. */
export const DUMP_FILE = { pglite: 'database/pglite-datadir.tar.gz', postgres: 'database/postgres.dump' } as const;

/**
 * PostgreSQL's client tools: PG_BIN_DIR if set, else the newest installed Debian version, else PATH.
 * pg_dump must be at least the server's major version; it says so itself when it is not.
 */
export function pgTool(name: 'pg_dump' | 'pg_restore'): string {
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

/**
 * Writes a consistent copy of the database to `file`: PGlite's own data-directory dump, taken in the
 * process that has it open (after a checkpoint, between two queries); PostgreSQL's `pg_dump`, which
 * reads one snapshot while the servers keep writing.
 */
export async function dumpDatabase(database: Database, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (database.kind === 'pglite') {
    const client = (database.db as unknown as { $client: PGlite }).$client;
    await client.query('checkpoint');
    const dump = await client.dumpDataDir('gzip');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return;
  }
  if (!database.url) throw new Error('The PostgreSQL URL is needed to dump the database');
  const { dbname, env } = connection(database.url);
  await tool(
    'pg_dump',
    ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${dbname}`],
    env,
  );
}

/** Schemas a restore replaces: everything but PostgreSQL's own. */
const USER_SCHEMAS = `select nspname from pg_namespace
  where nspname not like 'pg\\_%' and nspname <> 'information_schema' order by 1`;

/** Whether the database holds anyone's data: an account, an analysis or a post (a fresh install holds none). */
export async function databaseHasData(target: { pgliteDir?: string; url?: string }): Promise<boolean> {
  const query = `select (select count(*) from users) + (select count(*) from analyses) as n`;
  const hasTable = `select to_regclass('public.users') is not null and to_regclass('public.analyses') is not null as ok`;
  if (target.url) {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      if (!(await client.query(hasTable)).rows[0].ok) return false;
      return Number((await client.query(query)).rows[0].n) > 0;
    } finally {
      await client.end();
    }
  }
  const dir = target.pgliteDir!;
  if (!fs.existsSync(dir) || fs.readdirSync(dir).length === 0) return false;
  const client = new PGlite(dir);
  try {
    if (!(await client.query<{ ok: boolean }>(hasTable)).rows[0]?.ok) return false;
    return Number((await client.query<{ n: number }>(query)).rows[0]?.n) > 0;
  } finally {
    await client.close();
  }
}

/**
 * Replaces the target database with the dump: PGlite's directory is emptied and loaded from the saved
 * one; PostgreSQL's schemas are dropped and `pg_restore` fills them again in one transaction.
 */
export async function restoreDatabase(
  kind: 'pglite' | 'postgres',
  file: string,
  target: { pgliteDir?: string; url?: string },
): Promise<void> {
  if (kind === 'pglite') {
    const dir = target.pgliteDir!;
    const release = holdPgliteDir(dir);
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const client = new PGlite(dir, { loadDataDir: new Blob([fs.readFileSync(file)]) });
      await client.waitReady;
      await client.query('checkpoint');
      await client.close();
    } finally {
      release();
    }
    return;
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const schemas = (await client.query<{ nspname: string }>(USER_SCHEMAS)).rows.map((r) => r.nspname);
    await client.query('begin');
    for (const s of schemas) await client.query(`drop schema "${s.replaceAll('"', '""')}" cascade`);
    await client.query('create schema public');
    await client.query('commit');
  } finally {
    await client.end();
  }
  const { dbname, env } = connection(target.url!);
  await tool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file],
    env,
  );
}
