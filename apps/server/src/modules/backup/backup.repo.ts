import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { backups } from '../../db/schema/index.ts';

export type BackupRow = typeof backups.$inferSelect;

/** The scheduled backups' history (SQL only; the rules are in backup.schedule.ts). */
export function createBackupRepo(db: Db) {
  return {
    async start(file: string, startedAt: Date): Promise<number> {
      const [row] = await db.insert(backups).values({ file, startedAt }).returning({ id: backups.id });
      return row!.id;
    },
    async finish(
      id: number,
      done: { finishedAt: Date; sizeBytes?: number; fileCount?: number; verified: boolean; error?: string },
    ) {
      await db.update(backups).set(done).where(eq(backups.id, id));
    },
    /** The newest backups first. */
    recent: (limit: number): Promise<BackupRow[]> =>
      db.select().from(backups).orderBy(desc(backups.startedAt), desc(backups.id)).limit(limit),
    /** Archives still on disk, newest first (rotation removes those past the number kept). */
    kept: (): Promise<BackupRow[]> =>
      db
        .select()
        .from(backups)
        .where(and(isNull(backups.removedAt), isNotNull(backups.finishedAt), isNotNull(backups.sizeBytes)))
        .orderBy(desc(backups.startedAt), desc(backups.id)),
    async markRemoved(id: number, at: Date) {
      await db.update(backups).set({ removedAt: at }).where(eq(backups.id, id));
    },
  };
}
