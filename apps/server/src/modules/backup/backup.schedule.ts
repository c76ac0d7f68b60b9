import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BackupEntry, BackupStatus } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { makeOwnerOnly, mkdirOwnerOnly } from '../../lib/owner-only.ts';
import { takeBackup } from './backup.service.ts';
import { type BackupRow, createBackupRepo } from './backup.repo.ts';

const HOUR = 3600_000;
/** The longest a backup job may run (the queue's expiry for it, backup.jobs.ts). */
export const BACKUP_JOB_LIMIT_MS = 6 * HOUR;
/** A scheduled run a little early (the queue's hourly tick drifts) still counts as due. */
const EARLY_MS = 5 * 60_000;

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

function entry(r: BackupRow, here: boolean): BackupEntry {
  return {
    id: r.id,
    file: path.basename(r.file),
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
    size_bytes: r.sizeBytes,
    verified: r.verified,
    error: r.error,
    // Gone: rotated out, or not in this installation's BACKUP_DIR (a restored database remembers another's).
    removed: r.removedAt !== null || (r.verified && !here),
  };
}

/**
 * The worker's backups: every BACKUP_EVERY_HOURS one archive in BACKUP_DIR, read back and checked
 * against its manifest, recorded, and the verified ones past BACKUP_KEEP removed.
 */
export function createBackupSchedule(
  deps: Pick<ModuleDeps, 'db' | 'database' | 'storage' | 'config' | 'clock'>,
  log: (msg: string, err?: unknown) => void = () => {},
) {
  const repo = createBackupRepo(deps.db);
  const { config } = deps;
  const installation = {
    database: deps.database,
    storage: deps.storage,
    dataDir: config.dataDir,
  };
  /**
   * Whether the row's archive is in this installation's BACKUP_DIR: after a restore onto another
   * DATA_DIR, the history names archives of the old one, which are neither shown as backups nor rotated.
   */
  const isHere = (r: BackupRow) =>
    path.dirname(r.file) === path.resolve(config.backup.dir) && fsSync.existsSync(r.file);
  /** The newest verified backup whose archive is here. */
  const lastGood = async () => (await repo.kept()).find((r) => r.verified && isHere(r)) ?? null;

  async function rotate() {
    const kept = (await repo.kept()).filter((r) => r.verified && isHere(r));
    for (const old of kept.slice(config.backup.keep)) {
      await fs.rm(old.file, { force: true });
      await repo.markRemoved(old.id, deps.clock.now());
    }
  }

  async function scheduled(): Promise<BackupRow | null> {
    const startedAt = deps.clock.now();
    const file = path.join(config.backup.dir, `kutu-${stamp(startedAt)}.tar.gz`);
    const id = await repo.start(file, startedAt);
    try {
      // BACKUP_DIR is Kutu's: 0700, and its archives 0600, those an older Kutu wrote 0644 too.
      await mkdirOwnerOnly(config.backup.dir);
      await makeOwnerOnly(config.backup.dir);
      const result = await takeBackup(installation, file, startedAt, { nice: config.backup.nice, verify: true });
      await repo.finish(id, {
        finishedAt: deps.clock.now(),
        sizeBytes: result.size,
        fileCount: result.files,
        verified: true,
      });
      await rotate();
    } catch (err) {
      log('the scheduled backup failed', err);
      // An archive that did not verify is no backup: it is not kept to be mistaken for one.
      await fs.rm(file, { force: true }).catch(() => {});
      await repo.finish(id, { finishedAt: deps.clock.now(), verified: false, error: (err as Error).message });
    }
    return (await repo.recent(1))[0] ?? null;
  }

  return {
    /** Takes, verifies, records and rotates a scheduled backup now. */
    takeScheduled: scheduled,
    /** Takes one when the last verified one is BACKUP_EVERY_HOURS old (or there is none); the hourly job's rule. */
    async runIfDue(): Promise<BackupRow | null> {
      if (config.backup.everyHours <= 0) return null;
      // Another worker is taking one (a dead worker's unfinished row stops counting after the job's limit).
      const [newest] = await repo.recent(1);
      const now = deps.clock.now().getTime();
      if (newest && !newest.finishedAt && now - newest.startedAt.getTime() < BACKUP_JOB_LIMIT_MS) return null;
      const last = await lastGood();
      const age = last ? now - last.startedAt.getTime() : Number.POSITIVE_INFINITY;
      if (age < config.backup.everyHours * HOUR - EARLY_MS) return null;
      return this.takeScheduled();
    },
    async status(): Promise<BackupStatus> {
      const last = await lastGood();
      return {
        every_hours: config.backup.everyHours,
        keep: config.backup.keep,
        last_verified: last ? entry(last, true) : null,
        recent: (await repo.recent(10)).map((r) => entry(r, isHere(r))),
      };
    },
  };
}
