import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/index.ts';

/**
 * Whether the owner of `phone` sent STOP (and not START since): every SMS Kutu sends on its own
 * (alerts, reminders, booking and review notices) asks this first; only the codes a person asks for
 * at that moment (sign-up, password reset) go regardless. docs/decisions/0051.
 */
export async function smsStopped(db: Db, phone: string): Promise<boolean> {
  const [row] = await db.select({ at: users.smsStoppedAt }).from(users).where(eq(users.phone, phone));
  return Boolean(row?.at);
}
