import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite, type PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { holdPgliteDir } from './pglite-lock.ts';
import { makeOwnerOnly, OWNER_DIR_MODE } from '../lib/owner-only.ts';
import * as schema from './schema/index.ts';

/**
 * Both drivers expose the same Drizzle query API; we type them as one so repos stay driver-agnostic.
 */
export type Db = PgliteDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL's URL (the backup's pg_dump connects with it); none for PGlite. */
  url?: string;
  /**
   * Raw SQL with positional parameters, for libraries that need a plain executor (the job queue). With a
   * `name`, PostgreSQL keeps it as a prepared statement per connection (parsed and planned once; the
   * name must always come with the same text). PGlite runs in this process and ignores the name.
   */
  execute(text: string, values?: unknown[], name?: string): Promise<{ rows: Record<string, unknown>[] }>;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(import.meta.dirname, 'migrations');
/** Any constant; the advisory lock that serialises migrations between processes. */
const MIGRATION_LOCK = 4_722_016;

/**
 * PostgreSQL when a URL is given, otherwise embedded PGlite (a directory, or memory when dir is null). An
 * in-memory PGlite may start from `pgliteSnapshot`, a data directory saved by PGlite's `dumpDataDir`.
 */
export async function openDatabase(opts: {
  url?: string;
  pgliteDir?: string | null;
  pgliteSnapshot?: Blob;
}): Promise<Database> {
  if (opts.url) {
    // Named, so a restore that finds Kutu connected says so (modules/backup/restore.ts).
    const pool = new pg.Pool({ connectionString: opts.url, max: 10, application_name: 'kutu' });
    // An idle connection that the server drops (restart, failover) must not crash the process.
    pool.on('error', (err) => console.error('PostgreSQL connection error', err.message));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      url: opts.url,
      execute: async (text, values, name) => {
        const r = await pool.query({ text, values: values as unknown[], name });
        return { rows: r.rows };
      },
      // Several processes starting together on one database: one migrates, the others wait for it.
      migrate: async () => {
        const lock = await pool.connect();
        try {
          await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
          await migratePg(db as never, { migrationsFolder });
        } finally {
          await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
          lock.release();
        }
      },
      ping: async () => (await pool.query('select 1 as ok')).rows[0]?.ok === 1,
      close: () => pool.end(),
    };
  }
  if (opts.pgliteDir) fs.mkdirSync(opts.pgliteDir, { recursive: true, mode: OWNER_DIR_MODE });
  // One process at a time on a PGlite directory (pglite-lock.ts): a second one is refused here.
  const release = opts.pgliteDir ? holdPgliteDir(opts.pgliteDir) : () => {};
  const client = opts.pgliteDir
    ? new PGlite(opts.pgliteDir)
    : new PGlite(opts.pgliteSnapshot ? { loadDataDir: opts.pgliteSnapshot } : {});
  await client.waitReady.catch((err) => {
    release();
    throw err;
  });
  // PGlite writes a new (or loaded) data directory's files 0666 whatever the umask, the signing secrets'
  // WAL among them; those it creates later are 0600 (PostgreSQL's own mode), so once after opening is
  // enough, and once more at close as a belt (docs/decisions/0125).
  const ownerOnly = async () => {
    if (opts.pgliteDir) await makeOwnerOnly(opts.pgliteDir);
  };
  await ownerOnly().catch(async (err) => {
    await client.close().catch(() => {});
    release();
    throw err;
  });
  const db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    execute: async (text, values) => {
      const r = await client.query<Record<string, unknown>>(text, values as unknown[]);
      return { rows: r.rows };
    },
    migrate: () => migratePglite(db, { migrationsFolder }),
    ping: async () => (await client.query<{ ok: number }>('select 1 as ok')).rows[0]?.ok === 1,
    close: async () => {
      await client.close();
      await ownerOnly()
        .catch(() => {})
        .finally(release);
    },
  };
}
