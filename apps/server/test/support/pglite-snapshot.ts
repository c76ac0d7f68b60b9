import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from '../../src/db/client.ts';

/**
 * A migrated, empty PGlite data directory, saved once and loaded by every test database: a fresh PGlite
 * runs initdb (about 3 s here) and then every migration, while loading the saved directory takes about
 * 1 s. The file is keyed by the PGlite release and the migrations' text, so a changed migration or
 * PGlite makes a new one; it lives in the system's temp directory, and test processes share it. Each
 * process reads it once (the server's test files share their worker's modules).
 */
let snapshot: Promise<Blob> | null = null;
export function migratedPgliteSnapshot(): Promise<Blob> {
  // A failed attempt (a full disk, say) is not kept: the next test database tries again.
  snapshot ??= readOrMakeSnapshot().catch((err: unknown) => {
    snapshot = null;
    throw err;
  });
  return snapshot;
}

/** The saved snapshot's file (gzipped) for these migrations and this PGlite. */
export const snapshotFile = () => path.join(os.tmpdir(), `kutu-pglite-${snapshotKey()}.tar.gz`);

async function readOrMakeSnapshot(): Promise<Blob> {
  const file = snapshotFile();
  if (!fs.existsSync(file)) {
    const client = new PGlite();
    await migrate(drizzle(client), { migrationsFolder });
    const dump = Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer());
    await client.close();
    // Test processes start side by side: each writes its own file, and the rename is atomic.
    const partial = `${file}.${process.pid}`;
    fs.writeFileSync(partial, dump);
    fs.renameSync(partial, file);
  }
  // Unpacked here, once per process, rather than by every PGlite that loads it: PGlite's own gunzip made a
  // test database's start about half as long again (docs/decisions/0132).
  return new Blob([zlib.gunzipSync(fs.readFileSync(file))]);
}

function snapshotKey(): string {
  const hash = createHash('sha256');
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(fs.readFileSync(path.join(path.dirname(pgliteEntry), '..', 'package.json')));
  return migrationsKey(hash);
}

/** A short hash of the migrations' names and text (after whatever `hash` already holds). */
export function migrationsKey(hash = createHash('sha256')): string {
  for (const name of fs.readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort()) {
    const full = path.join(migrationsFolder, name);
    if (fs.statSync(full).isFile()) hash.update(name).update(fs.readFileSync(full));
  }
  return hash.digest('hex').slice(0, 16);
}
