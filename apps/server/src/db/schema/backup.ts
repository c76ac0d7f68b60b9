import { bigint, boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The scheduled backups the worker took (modules/backup): the archive's file, its size, whether it was
 * read back and matched its manifest, or why it failed. Rows of archives removed by rotation stay, with
 * `removed_at`, so the administrator sees the history.
 */
export const backups = pgTable(
  'backups',
  {
    id: serial('id').primaryKey(),
    file: text('file').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    fileCount: integer('file_count'),
    /** The archive was read back in full and every file matched its SHA-256 in the manifest. */
    verified: boolean('verified').notNull().default(false),
    error: text('error'),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [index('backups_started_at_idx').on(t.startedAt)],
);
