import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Database } from '../../db/client.ts';
import { contentTypeOf, type FileStorage } from '../../adapters/storage.ts';
import { BadArchiveError, extractArchive, type Manifest, verifyArchive, writeArchive } from './archive.ts';
import { DatabaseInUseError, pgliteHolder } from '../../db/pglite-lock.ts';
import { databaseHasData, DUMP_FILE, dumpDatabase, restoreDatabase } from './database-dump.ts';

/** What one installation is made of: its database, its stored objects and DATA_DIR's models folder. */
export interface Installation {
  database: Database;
  storage: FileStorage;
  dataDir: string;
}

export interface BackupResult {
  file: string;
  size: number;
  files: number;
  seconds: number;
  createdAt: string;
}

const modelsDir = (dataDir: string) => path.join(dataDir, 'models');

async function copyDir(from: string, to: string): Promise<void> {
  const exists = await fs.stat(from).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (exists) await fs.cp(from, to, { recursive: true });
}

/**
 * Writes one archive at `out`: the database first (a consistent copy), then every stored object and
 * the models folder. A photo uploaded after the dump is in the archive without its row (the orphan
 * sweep removes it after a restore); one removed after the dump is missing (the row's photo answers 404).
 */
export async function takeBackup(inst: Installation, out: string, now = new Date()): Promise<BackupResult> {
  const started = Date.now();
  const file = path.resolve(out);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const staging = await fs.mkdtemp(path.join(path.dirname(file), '.kutu-backup-'));
  try {
    const dumpFile = DUMP_FILE[inst.database.kind];
    await dumpDatabase(inst.database, path.join(staging, dumpFile));
    for (const { key } of await inst.storage.list('')) {
      // A file the local disk is still writing (renamed into place when done).
      if (key.endsWith('.part')) continue;
      const target = path.join(staging, 'storage', key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const obj = await inst.storage.stream(key).catch(async (err: unknown) => {
        // Removed since the listing (a deleted post's photo): not part of this backup.
        if (!(await inst.storage.exists(key))) return null;
        throw err;
      });
      if (obj) await pipeline(obj.body, createWriteStream(target));
    }
    await copyDir(modelsDir(inst.dataDir), path.join(staging, 'models'));
    const manifest = await writeArchive(staging, file, {
      created_at: now.toISOString(),
      database: inst.database.kind,
      database_file: dumpFile,
      storage: inst.storage.kind,
    });
    return {
      file,
      size: (await fs.stat(file)).size,
      files: manifest.files.length,
      seconds: (Date.now() - started) / 1000,
      createdAt: manifest.created_at,
    };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/** Where a restore puts things: a database not yet opened by any process, a storage, DATA_DIR. */
export interface RestoreTarget {
  /** PostgreSQL URL; without it the embedded database in DATA_DIR/db. */
  databaseUrl?: string;
  storage: FileStorage;
  dataDir: string;
}

export class NotEmptyError extends Error {
  override name = 'NotEmptyError';
}

const pgliteDir = (dataDir: string) => path.join(dataDir, 'db');

async function hasFiles(dir: string): Promise<boolean> {
  const names = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return names.some((d) => d.isFile());
}

/** What the target already holds (empty when nothing): accounts or analyses, stored objects, model files. */
async function whatIsThere(target: RestoreTarget): Promise<string[]> {
  const held: string[] = [];
  if (await databaseHasData({ url: target.databaseUrl, pgliteDir: pgliteDir(target.dataDir) })) held.push('data');
  const objects = (await target.storage.list('')).length;
  if (objects) held.push(`${objects} stored ${objects === 1 ? 'file' : 'files'}`);
  if (await hasFiles(modelsDir(target.dataDir))) held.push('model files');
  return held;
}

/**
 * Brings the target back to the archive's state. First the whole archive is checked against its
 * manifest (BadArchiveError: nothing changed); then a target holding anything is refused unless `force`
 * (NotEmptyError: nothing changed); then database, stored objects and models are replaced.
 */
export async function restoreBackup(
  from: string,
  target: RestoreTarget,
  opts: { force?: boolean; log?: (msg: string) => void } = {},
): Promise<Manifest> {
  const log = opts.log ?? (() => {});
  const manifest = await verifyArchive(from);
  log(`The archive is complete: ${manifest.files.length} files match their checksums (taken ${manifest.created_at}).`);
  const wanted = target.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database !== wanted) {
    throw new BadArchiveError(
      `it holds a ${manifest.database === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'} database, and this installation uses ${wanted === 'pglite' ? 'the embedded one' : 'PostgreSQL (DATABASE_URL)'}`,
    );
  }
  // The embedded database must not be open in a running server while it is replaced.
  const holder = target.databaseUrl ? null : pgliteHolder(pgliteDir(target.dataDir));
  if (holder !== null) throw new DatabaseInUseError(holder);
  const held = await whatIsThere(target);
  if (held.length && !opts.force) {
    throw new NotEmptyError(
      `This installation is not empty (it holds ${held.join(', ')}). Restore into an empty one, or add --force to replace everything in it.`,
    );
  }
  await fs.mkdir(target.dataDir, { recursive: true });
  const scratch = await fs.mkdtemp(path.join(path.dirname(path.resolve(from)), '.kutu-restore-'));
  try {
    await extractArchive(from, scratch, manifest);
    await restoreDatabase(manifest.database, path.join(scratch, manifest.database_file), {
      url: target.databaseUrl,
      pgliteDir: pgliteDir(target.dataDir),
    });
    log('Database restored.');
    for (const { key } of await target.storage.list('')) await target.storage.remove(key);
    const stored = manifest.files.filter((f) => f.path.startsWith('storage/'));
    for (const f of stored) {
      const key = f.path.slice('storage/'.length);
      await target.storage.putKey(key, await fs.readFile(path.join(scratch, f.path)), contentTypeOf(key));
    }
    log(`Stored files restored: ${stored.length}.`);
    await fs.rm(modelsDir(target.dataDir), { recursive: true, force: true });
    await copyDir(path.join(scratch, 'models'), modelsDir(target.dataDir));
    return manifest;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
