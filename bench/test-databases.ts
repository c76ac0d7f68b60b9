/**
 * What a server test file pays for its database (docs/decisions/0132), old way against new, side by side:
 * - PGlite: loading the migrated snapshot still gzipped (PGlite unpacks it) against unpacked once per process;
 * - PostgreSQL: a new database migrated from nothing against a copy of a migrated template.
 * `node bench/test-databases.ts` (BENCH_RUNS, default 3). PostgreSQL needs its binaries (scripts/postgres.ts).
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migratedPgliteSnapshot, snapshotFile } from '../apps/server/test/support/pglite-snapshot.ts';
import { startTemporaryPostgres } from '../scripts/postgres.ts';
import { atLeast, ensure, percentile, timings } from './measured.ts';

const runs = atLeast(Number(process.env.BENCH_RUNS ?? 3), 1, 'timed runs (BENCH_RUNS)');
const median = (xs: number[], what: string) => `${percentile(timings(xs, what), 50, what).toFixed(0)} ms`;

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Opens PGlite from `blob`, checks the migrated tables are there, closes it. */
async function openPglite(blob: Blob) {
  const client = new PGlite({ loadDataDir: blob });
  const { rows } = await client.query<{ n: number }>(
    "select count(*)::int as n from pg_tables where schemaname = 'public'",
  );
  ensure(rows[0].n > 10, 'a migrated PGlite database');
  await client.close();
}

const unpacked = await migratedPgliteSnapshot();
const gzipped = new Blob([fs.readFileSync(snapshotFile())]);
ensure(zlib.gunzipSync(Buffer.from(await gzipped.arrayBuffer())).length === unpacked.size, 'the same snapshot');
const pgliteGzip: number[] = [];
const pgliteUnpacked: number[] = [];
for (let i = 0; i < runs; i++) {
  pgliteGzip.push(await timed(() => openPglite(gzipped)));
  pgliteUnpacked.push(await timed(() => openPglite(unpacked)));
}
console.log(
  `PGlite test database: gzipped snapshot ${median(pgliteGzip, 'gzip')}, unpacked ${median(pgliteUnpacked, 'unpacked')}`,
);

const server = await startTemporaryPostgres();
try {
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const urlOf = (name: string) => Object.assign(new URL(server.url), { pathname: `/${name}` }).toString();
  const tables = async (name: string) => {
    const database = await openDatabase({ url: urlOf(name) });
    const { rows } = await database.execute("select count(*)::int as n from pg_tables where schemaname = 'public'");
    await database.close();
    return Number(rows[0].n);
  };
  const migrated: number[] = [];
  const copied: number[] = [];
  for (let i = 0; i < runs; i++) {
    migrated.push(
      await timed(async () => {
        await admin.query(`create database migrated_${i}`);
        const database = await openDatabase({ url: urlOf(`migrated_${i}`) });
        await database.migrate();
        await database.close();
      }),
    );
    ensure((await tables(`migrated_${i}`)) > 10, 'a migrated PostgreSQL database');
    copied.push(
      await timed(async () => {
        await admin.query(`create database copied_${i} template migrated_0`);
        const database = await openDatabase({ url: urlOf(`copied_${i}`) });
        ensure(await database.ping(), 'a copied database that answers');
        await database.close();
      }),
    );
    ensure((await tables(`copied_${i}`)) > 10, 'a copy with the migrated tables');
  }
  await admin.end();
  console.log(
    `PostgreSQL test database: migrated ${median(migrated, 'migrated')}, copied from a template ${median(copied, 'copied')}`,
  );
} finally {
  server.stop();
}
