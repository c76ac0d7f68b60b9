import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Usernames of the try-out farmers start with this (`npm run outbreak:demo`). */
export const DEMO_USERNAME_PREFIX = 'demo_outbreak_';

/**
 * The demo farmers, by their literal prefix: in LIKE, `_` stands for any character, so it is escaped,
 * else `demo.outbreak.fan` or `demo-outbreak-2026` (real accounts) would match too.
 */
export const demoUsers = sql`username like ${`${DEMO_USERNAME_PREFIX.replace(/[!%_]/g, '!$&')}%`} escape '!'`;

/** Deletes the demo farmers (their analyses and cases go with them); returns how many. */
export async function removeDemoUsers(db: Db): Promise<number> {
  const res = await db.execute(sql`delete from users where ${demoUsers} returning id`);
  return (res as unknown as { rows: unknown[] }).rows.length;
}
