import { randomUUID } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { contentTypeOf, type FileStorage } from '../../adapters/storage.ts';
import { DatabaseInUseError, holdPgliteDir, pgliteHolder } from '../../db/pglite-lock.ts';
import { makeOwnerOnly, mkdirOwnerOnly } from '../../lib/owner-only.ts';
import { BadArchiveError, extractArchive, type Manifest, verifyArchive } from './archive.ts';
import {
  databaseState,
  loadPgliteDump,
  otherSessions,
  readRestoreMark,
  restoreMark,
  restorePostgres,
} from './database-dump.ts';

/**
 * A restore is all or nothing (docs/decisions/0080). Everything is first made beside the installation,
 * in DATA_DIR/.restore-<id>: the archive unpacked, the embedded database loaded. Then one step commits
 * it: for PGlite, writing DATA_DIR/restore-journal.json; for PostgreSQL, the transaction that replaces
 * the database (its mark says it committed). What follows the commit (the database directory swapped,
 * stored files and models made equal to the archive's) is repeated until done by whoever comes next: the
 * restore itself, the next restore, or the server starting. Killed before the commit, nothing of the
 * installation changed, and the next restore or start removes the scratch folder.
 */

/** Where a restore puts things: a database not opened by any process, a storage, DATA_DIR. */
export interface RestoreTarget {
  /** PostgreSQL URL; without it the embedded database in DATA_DIR/db. */
  databaseUrl?: string;
  storage: FileStorage;
  dataDir: string;
}

export class NotEmptyError extends Error {
  override name = 'NotEmptyError';
}

/** The database is open elsewhere, or another restore runs: nothing was changed. */
export class InUseError extends Error {
  override name = 'InUseError';
}

interface Journal {
  id: string;
  pid: number;
  database: 'pglite' | 'postgres';
  scratch: string;
}

const pgliteDir = (dataDir: string) => path.join(dataDir, 'db');
const modelsDir = (dataDir: string) => path.join(dataDir, 'models');
const journalFile = (dataDir: string) => path.join(dataDir, 'restore-journal.json');
const SCRATCH = '.restore-';

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readJournal(dataDir: string): Promise<Journal | null> {
  try {
    return JSON.parse(await fs.readFile(journalFile(dataDir), 'utf8')) as Journal;
  } catch {
    return null;
  }
}

/** Written beside and renamed, then flushed: the commit of an embedded restore. */
async function writeJournal(dataDir: string, journal: Journal) {
  const partial = `${journalFile(dataDir)}.partial`;
  await fs.writeFile(partial, JSON.stringify(journal));
  const handle = await fs.open(partial, 'r');
  await handle.sync();
  await handle.close();
  await fs.rename(partial, journalFile(dataDir));
}

async function copyDir(from: string, to: string): Promise<void> {
  const exists = await fs.stat(from).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (exists) await fs.cp(from, to, { recursive: true });
}

/** After the commit: the installation becomes the archive's. Each step can run again (a killed restore). */
async function rollForward(target: RestoreTarget, journal: Journal, log: (msg: string) => void) {
  const unpacked = path.join(journal.scratch, 'archive');
  const manifest = JSON.parse(await fs.readFile(path.join(unpacked, 'manifest.json'), 'utf8')) as Manifest;
  const staged = path.join(journal.scratch, 'db');
  if (journal.database === 'pglite' && fsSync.existsSync(staged)) {
    const live = pgliteDir(target.dataDir);
    if (fsSync.existsSync(live)) await fs.rename(live, path.join(journal.scratch, 'old-db'));
    await fs.rename(staged, live);
  }
  const stored = manifest.files.filter((f) => f.path.startsWith('storage/'));
  const keep = new Set(stored.map((f) => f.path.slice('storage/'.length)));
  for (const f of stored) {
    const key = f.path.slice('storage/'.length);
    await target.storage.putKey(key, await fs.readFile(path.join(unpacked, f.path)), contentTypeOf(key));
  }
  for (const { key } of await target.storage.list('')) if (!keep.has(key)) await target.storage.remove(key);
  log(`Stored files restored: ${stored.length}.`);
  await fs.rm(modelsDir(target.dataDir), { recursive: true, force: true });
  await copyDir(path.join(unpacked, 'models'), modelsDir(target.dataDir));
  await fs.rm(journalFile(target.dataDir), { force: true });
  await fs.rm(journal.scratch, { recursive: true, force: true });
  // The loaded database's files are 0666 as PGlite writes them, stored files as the umask made them.
  await makeOwnerOnly(target.dataDir);
}

/**
 * Finishes or undoes a restore that stopped half-way, and removes scratch folders of restores killed
 * before their commit. Run before a restore and before the server opens the database. Throws InUseError
 * while another restore runs.
 */
export async function finishInterruptedRestore(target: RestoreTarget, log: (msg: string) => void = () => {}) {
  const journal = await readJournal(target.dataDir);
  if (journal && journal.pid !== process.pid && alive(journal.pid)) {
    throw new InUseError(`A restore is running (pid ${journal.pid}): wait for it to finish, then run this again.`);
  }
  if (journal?.database === 'postgres' && !target.databaseUrl) {
    throw new InUseError(
      'A PostgreSQL restore stopped half-way here: run this with DATABASE_URL set as the server has it.',
    );
  }
  if (journal) {
    const committed =
      journal.database === 'pglite' || (await readRestoreMark(target.databaseUrl!)) === restoreMark(journal.id);
    if (committed) {
      log('A restore was stopped after its commit: finishing it.');
      await rollForward(target, journal, log);
    } else {
      log('A restore was stopped before its commit: the installation is as it was.');
      await fs.rm(journalFile(target.dataDir), { force: true });
    }
  }
  const names = await fs.readdir(target.dataDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(SCRATCH))) {
    const dir = path.join(target.dataDir, name);
    const pid = Number(await fs.readFile(path.join(dir, 'pid'), 'utf8').catch(() => '0'));
    if (pid > 0 && pid !== process.pid && alive(pid)) continue;
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function hasFiles(dir: string): Promise<boolean> {
  const names = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return names.some((d) => d.isFile());
}

/** What the target already holds (empty when nothing): accounts or analyses, stored objects, model files. */
async function whatIsThere(target: RestoreTarget): Promise<string[]> {
  const held: string[] = [];
  const state = await databaseState({ url: target.databaseUrl, pgliteDir: pgliteDir(target.dataDir) });
  if (state === 'data') held.push('data');
  const objects = (await target.storage.list('')).length;
  if (objects) held.push(`${objects} stored ${objects === 1 ? 'file' : 'files'}`);
  if (await hasFiles(modelsDir(target.dataDir))) held.push('model files');
  return held;
}

/** Refuses (InUseError) while anything else has the database open. */
async function assertNotInUse(target: RestoreTarget) {
  if (!target.databaseUrl) {
    const holder = pgliteHolder(pgliteDir(target.dataDir));
    if (holder !== null) throw new DatabaseInUseError(holder);
    return;
  }
  const others = await otherSessions(target.databaseUrl);
  if (others.length > 0) {
    const names = [...new Set(others)].join(', ');
    throw new InUseError(
      `The database is open in ${others.length} other ${others.length === 1 ? 'session' : 'sessions'} (${names}): Kutu is running? Stop every Kutu process (web, worker) first, then run this again.`,
    );
  }
}

/**
 * Brings the target back to the archive's state, all or nothing. First the whole archive is checked
 * against its manifest (BadArchiveError: nothing changed); then a database in use (InUseError,
 * DatabaseInUseError) and a target holding anything unless `force` (NotEmptyError) are refused; then the
 * new installation is made beside the old one and committed in one step.
 */
export async function restoreBackup(
  from: string,
  target: RestoreTarget,
  opts: { force?: boolean; log?: (msg: string) => void; onSignal?: boolean } = {},
): Promise<Manifest> {
  const log = opts.log ?? (() => {});
  await finishInterruptedRestore(target, log);
  const manifest = await verifyArchive(from);
  log(`The archive is complete: ${manifest.files.length} files match their checksums (taken ${manifest.created_at}).`);
  const wanted = target.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database !== wanted) {
    throw new BadArchiveError(
      `it holds a ${manifest.database === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'} database, and this installation uses ${wanted === 'pglite' ? 'the embedded one' : 'PostgreSQL (DATABASE_URL)'}`,
    );
  }
  await assertNotInUse(target);
  await mkdirOwnerOnly(target.dataDir);
  // No server may open the embedded database until the restore is done (pglite-lock.ts).
  const release = target.databaseUrl ? () => {} : holdPgliteDir(pgliteDir(target.dataDir));
  const id = randomUUID();
  const scratch = path.join(target.dataDir, `${SCRATCH}${id}`);
  let committed = false;
  // Ctrl-C or a stop before the commit: the scratch folder goes and nothing else changed; after it, the restore finishes.
  const onSignal = () => {
    if (committed) return log('Finishing the restore: it has been committed.');
    fsSync.rmSync(scratch, { recursive: true, force: true });
    release();
    process.exit(130);
  };
  if (opts.onSignal) for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, onSignal);
  try {
    const held = await whatIsThere(target);
    if (held.length && !opts.force) {
      throw new NotEmptyError(
        `This installation is not empty (it holds ${held.join(', ')}). Restore into an empty one, or add --force to replace everything in it.`,
      );
    }
    await fs.mkdir(scratch);
    await fs.writeFile(path.join(scratch, 'pid'), String(process.pid));
    const unpacked = path.join(scratch, 'archive');
    await extractArchive(from, unpacked, manifest);
    const journal: Journal = { id, pid: process.pid, database: manifest.database, scratch };
    const dump = path.join(unpacked, manifest.database_file);
    if (manifest.database === 'pglite') {
      await loadPgliteDump(dump, path.join(scratch, 'db'));
      log('Database loaded beside the installation.');
      await writeJournal(target.dataDir, journal);
      committed = true;
    } else {
      // A server started while the archive was unpacked is refused now rather than restored under.
      await assertNotInUse(target);
      // The journal first: killed inside the transaction, the next run reads the mark to know which way it went.
      await writeJournal(target.dataDir, journal);
      try {
        await restorePostgres(dump, target.databaseUrl!, restoreMark(id));
      } catch (err) {
        await fs.rm(journalFile(target.dataDir), { force: true });
        // The transaction was rolled back: say so, the operator's first question.
        if (err instanceof Error) err.message += '. Nothing was changed: the database is as it was before the restore.';
        throw err;
      }
      committed = true;
    }
    log('Database restored.');
    await rollForward(target, journal, log);
    return manifest;
  } finally {
    if (!committed) await fs.rm(scratch, { recursive: true, force: true });
    for (const s of ['SIGINT', 'SIGTERM'] as const) process.off(s, onSignal);
    release();
  }
}
