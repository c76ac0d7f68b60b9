import { z } from 'zod';
import { isoDateTime } from './common.ts';

/** One scheduled backup, as an administrator sees it. */
export const backupEntry = z.object({
  id: z.number().int(),
  file: z.string().describe("The archive's file name in BACKUP_DIR"),
  started_at: isoDateTime,
  finished_at: isoDateTime.nullable(),
  size_bytes: z.number().int().nullable(),
  verified: z.boolean().describe('Read back in full; every file matched its SHA-256 in the manifest'),
  error: z.string().nullable().describe('Why the backup failed, if it did'),
  removed: z.boolean().describe('Removed by rotation (only the last BACKUP_KEEP are kept)'),
});
export type BackupEntry = z.infer<typeof backupEntry>;

/** The scheduled backups: the settings, the newest verified one and the recent history. */
export const backupStatus = z.object({
  every_hours: z.number().describe('Hours between scheduled backups; 0: none are scheduled'),
  keep: z.number().int(),
  last_verified: backupEntry.nullable(),
  recent: z.array(backupEntry),
});
export type BackupStatus = z.infer<typeof backupStatus>;
