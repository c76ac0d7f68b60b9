import { inArray, or } from 'drizzle-orm';
import type { FileStorage } from '../adapters/storage.ts';
import type { Db } from '../db/client.ts';
import { analyses, posts, trainingSamples } from '../db/schema/index.ts';

/**
 * Photos are written before the row that refers to them is inserted (so a row never points at a
 * missing file). A crash in between leaves a file without a row: this sweep removes such files once
 * they are older than a grace period, far longer than any request takes. Only the folders listed here
 * are swept, each against the table that owns it; anything else under uploads/ is left alone.
 */
export const PHOTO_OWNERS: { folder: string; referenced: (db: Db, keys: string[]) => Promise<string[]> }[] = [
  {
    folder: 'analyses',
    // An analysis owns its photo and its heatmap.
    referenced: async (db, keys) =>
      (
        await db
          .select({ photo: analyses.imagePath, heatmap: analyses.heatmapPath })
          .from(analyses)
          .where(or(inArray(analyses.imagePath, keys), inArray(analyses.heatmapPath, keys)))
      ).flatMap((r) => [r.photo, r.heatmap ?? '']),
  },
  {
    folder: 'posts',
    referenced: async (db, keys) =>
      (await db.select({ key: posts.imagePath }).from(posts).where(inArray(posts.imagePath, keys))).map(
        (r) => r.key ?? '',
      ),
  },
  {
    folder: 'training',
    referenced: async (db, keys) =>
      (
        await db
          .select({ key: trainingSamples.imagePath })
          .from(trainingSamples)
          .where(inArray(trainingSamples.imagePath, keys))
      ).map((r) => r.key),
  },
];

export const ORPHAN_GRACE_MS = 60 * 60_000;
const BATCH = 500;

/** Removes photo files that no row refers to and that are older than `graceMs`; returns their keys. */
export async function sweepOrphanPhotos(deps: {
  db: Db;
  storage: FileStorage;
  now: Date;
  graceMs?: number;
}): Promise<string[]> {
  const cutoff = deps.now.getTime() - (deps.graceMs ?? ORPHAN_GRACE_MS);
  const removed: string[] = [];
  for (const owner of PHOTO_OWNERS) {
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
  deps: { db: Db; storage: FileStorage; log: (msg: string, err?: unknown) => void },
  everyMs = 6 * 3600_000,
): () => void {
  const sweep = () =>
    sweepOrphanPhotos({ db: deps.db, storage: deps.storage, now: new Date() }).then(
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
