import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FORMER_MEMBER } from '@kutu/contract';
import type { Database } from '../../db/client.ts';
import type { FileStorage } from '../../adapters/storage.ts';
import type { Holdings } from './archive.ts';
import { writeArchiveApart } from './archive-writer.ts';
import { mkdirOwnerOnly } from '../../lib/owner-only.ts';
import { DUMP_FILE, dumpDatabase, type SnapshotQuery } from './database-dump.ts';

/** The database as a backup dumps it (the privacy module's erasure test reads one for an erased name). */
export { dumpDatabase } from './database-dump.ts';

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
  /** What the archive holds, for its last line: accounts, analyses, photos. */
  holds: Holdings;
}

/** BACKUP_NICE's default (config.ts): for callers without the settings (tests, benches). */
const DEFAULT_NICE = 10;
const PHOTO = /\.(jpe?g|png|webp)$/i;

/** Accounts (the Former member aside) and analyses, counted in the dump's own snapshot (database-dump.ts). */
async function countRows(query: SnapshotQuery): Promise<Pick<Holdings, 'accounts' | 'analyses'>> {
  const [row] = await query(
    `select (select count(*) from users where phone <> $1)::int as accounts, (select count(*) from analyses)::int as analyses`,
    [FORMER_MEMBER.phone],
  );
  return { accounts: Number(row!.accounts), analyses: Number(row!.analyses) };
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
 * the models folder; checksums, compression and (`verify`) the read-back run in a child process at
 * niceness `nice` (archive-writer.ts). A photo uploaded after the dump is in the archive without its row (the orphan
 * sweep removes it after a restore); one removed after the dump is missing (the row's photo answers 404).
 */
export async function takeBackup(
  inst: Installation,
  out: string,
  now = new Date(),
  opts: { nice?: number; verify?: boolean } = {},
): Promise<BackupResult> {
  const started = Date.now();
  const file = path.resolve(out);
  // A folder made for it is 0700 and the archive 0600 (archive.ts); a folder named that exists keeps its mode.
  await mkdirOwnerOnly(path.dirname(file));
  const staging = await fs.mkdtemp(path.join(path.dirname(file), '.kutu-backup-'));
  try {
    const dumpFile = DUMP_FILE[inst.database.kind];
    const counted = await dumpDatabase(inst.database, path.join(staging, dumpFile), countRows);
    let photos = 0;
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
      if (!obj) continue;
      await pipeline(obj.body, createWriteStream(target));
      if (PHOTO.test(key)) photos += 1;
    }
    await copyDir(modelsDir(inst.dataDir), path.join(staging, 'models'));
    const meta = {
      created_at: now.toISOString(),
      database: inst.database.kind,
      database_file: dumpFile,
      storage: inst.storage.kind,
      holds: { ...counted, photos },
    };
    const manifest = await writeArchiveApart(
      { staging, out: file, meta, verify: opts.verify ?? false },
      opts.nice ?? DEFAULT_NICE,
    );
    return {
      file,
      size: (await fs.stat(file)).size,
      files: manifest.files.length,
      seconds: (Date.now() - started) / 1000,
      createdAt: manifest.created_at,
      holds: { ...counted, photos },
    };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

export { InUseError, NotEmptyError, restoreBackup } from './restore.ts';
