import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/*
 * The try-out farmers of `npm run outbreak:demo` (flagged `users.demo`, no password: they cannot sign in).
 * Accounts are this module's, so it makes, counts and removes them; the command asks through account.service.ts.
 */

/** Usernames of the try-out farmers start with this (`npm run outbreak:demo`): a name only, never the test. */
export const DEMO_USERNAME_PREFIX = 'demo_outbreak_';

/**
 * The demo farmers: marked by `users.demo`, which only the demo command sets. Not by their names: anyone
 * may sign up as `demo_outbreak_fan`.
 */
const demoUsers = sql`demo`;

/** How many demo farmers there are. */
export async function countDemoFarmers(db: Db): Promise<number> {
  const existing = await db.execute(sql`select count(*)::int as n from users where ${demoUsers}`);
  return Number((existing as unknown as { rows: { n: number }[] }).rows[0]!.n);
}

/** Adds one demo farmer, with a demo farm of maize, in `district`; returns their id. */
export async function addDemoFarmer(db: Db, f: { username: string; phone: string; district: string }) {
  const res =
    await db.execute(sql`insert into users (email, username, role, phone, district, activated_at, sms_alerts, demo)
          values (null, ${f.username}, 'farmer', ${f.phone}, ${f.district}, now(), false, true)
          returning id`);
  const userId = (res as unknown as { rows: { id: number }[] }).rows[0]!.id;
  await db.execute(sql`insert into farmer_profiles (user_id, farm_location, farm_size, crop_types)
          values (${userId}, 'Demo farm (try-out data)', 1, '{MAIZE}')`);
  return userId;
}

/** Deletes the demo farmers (their analyses and cases go with them); returns how many. */
export async function removeDemoUsers(db: Db): Promise<number> {
  const res = await db.execute(sql`delete from users where ${demoUsers} returning id`);
  return (res as unknown as { rows: unknown[] }).rows.length;
}
