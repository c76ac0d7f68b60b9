import type { FileStorage } from '../adapters/storage.ts';
import type { Db } from '../db/client.ts';

/**
 * Photos are written before the row that refers to them is inserted (so a row never points at a
 * missing file). A crash in between leaves a file without a row: this sweep removes such files once
 * they are older than a grace period, far longer than any request takes. Only the folders of the
 * owners handed in are swept (ports.ts's `photoOwners`), each against the module that owns its rows,
 * asked through that module's service; anything else under uploads/ is left alone.
 */
export interface PhotoOwner {
  folder: string;
  /** Which of these keys a row of the owner refers to. */
  referenced: (db: Db, keys: string[]) => Promise<string[]>;
}

export const ORPHAN_GRACE_MS = 60 * 60_000;
const BATCH = 500;

/** Removes photo files that no row refers to and that are older than `graceMs`; returns their keys. */
export async function sweepOrphanPhotos(deps: {
  db: Db;
  owners: readonly PhotoOwner[];
  storage: FileStorage;
  now: Date;
  graceMs?: number;
}): Promise<string[]> {
  const cutoff = deps.now.getTime() - (deps.graceMs ?? ORPHAN_GRACE_MS);
  const removed: string[] = [];
  for (const owner of deps.owners) {
    const old = (await deps.storage.list(owner.folder)).filter((f) => f.modifiedAt.getTime() < cutoff);
    for (let i = 0; i < old.length; i += BATCH) {
      const keys = old.slice(i, i + BATCH).map((f) => f.key);
      const kept = new Set(await owner.referenced(deps.db, keys));
      for (const key of keys) {
        if (kept.has(key)) continue;
        await deps.storage.remove(key);
        removed.push(key);
      }
    }
  }
  return removed;
}

/** Sweeps once now and then every `everyMs` (default six hours); errors are logged, never thrown. */
export function startOrphanPhotoSweep(
  deps: { db: Db; storage: FileStorage; owners: readonly PhotoOwner[]; log: (msg: string, err?: unknown) => void },
  everyMs = 6 * 3600_000,
): () => void {
  const sweep = () =>
    sweepOrphanPhotos({ db: deps.db, owners: deps.owners, storage: deps.storage, now: new Date() }).then(
      (removed) => {
        if (removed.length) deps.log(`removed ${removed.length} photo files that no row refers to`);
      },
      (err) => deps.log('the orphan photo sweep failed', err),
    );
  void sweep();
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
