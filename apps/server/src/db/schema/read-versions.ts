import { bigint, integer, pgTable } from 'drizzle-orm/pg-core';

/**
 * A counter per user that database triggers raise in the transaction of every write that can change
 * what the user's dashboard or analysis history shows (their analyses and the reviews, training
 * samples and expert answers about them, their posts and bookings), and row 0 for what every user's
 * screens share (training sessions that succeeded, resources, advice). Caches of those screens key
 * their entries by these counters, so a write in any process is seen by the next read in every
 * process (docs/decisions/0036). The triggers are in migration 0018.
 */
export const readVersions = pgTable('read_versions', {
  /** The user whose screens changed; 0: what every user's screens share. No foreign key (row 0). */
  userId: integer('user_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(1),
});
