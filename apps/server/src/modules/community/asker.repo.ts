import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';

/** A post author's phone and whether they chose SMS notifications. */
export async function smsContactOf(db: Db, userId: number): Promise<{ phone: string; smsAlerts: boolean } | undefined> {
  const [row] = await db
    .select({ phone: users.phone, smsAlerts: users.smsAlerts })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
