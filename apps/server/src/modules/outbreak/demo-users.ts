import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Usernames of the try-out farmers start with this (`npm run outbreak:demo`): a name only, never the test. */
export const DEMO_USERNAME_PREFIX = 'demo_outbreak_';

/**
 * The demo farmers: marked by `users.demo`, which only the demo command sets. Not by their names: anyone
 * may sign up as `demo_outbreak_fan`.
 */
export const demoUsers = sql`demo`;

/** Deletes the demo farmers (their analyses and cases go with them); returns how many. */
export async function removeDemoUsers(db: Db): Promise<number> {
  const res = await db.execute(sql`delete from users where ${demoUsers} returning id`);
  return (res as unknown as { rows: unknown[] }).rows.length;
}
