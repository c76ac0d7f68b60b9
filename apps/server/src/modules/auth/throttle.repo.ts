import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authThrottle } from '../../db/schema/index.ts';

/**
 * Keys name an email or phone number ("reset:+256…"): only their SHA-256 is stored, so the table never
 * holds a number or address, not even one typed after its account was erased.
 */
const stored = (key: string) => createHash('sha256').update(key).digest('hex');

/** Counters behind the sign-in back-off and the per-account limits (resets, codes). */
export function createThrottleRepo(db: Db) {
  return {
    /** Counts one event in a fixed window (restarting an expired window); returns the count. */
    async hitThrottle(rawKey: string, now: Date, windowMs: number) {
      const key = stored(rawKey);
      const cutoff = new Date(now.getTime() - windowMs).toISOString();
      const [row] = await db
        .insert(authThrottle)
        .values({ key, count: 1, windowStart: now })
        .onConflictDoUpdate({
          target: authThrottle.key,
          set: {
            count: sql`case when ${authThrottle.windowStart} <= ${cutoff}::timestamptz then 1 else ${authThrottle.count} + 1 end`,
            windowStart: sql`case when ${authThrottle.windowStart} <= ${cutoff}::timestamptz then ${now.toISOString()}::timestamptz else ${authThrottle.windowStart} end`,
          },
        })
        .returning();
      return row;
    },

    /**
     * Counts a failed sign-in for the back-off: here `windowStart` holds the time of the last failure,
     * and the count restarts when the previous failure is older than `forgetAfterMs`.
     */
    async recordFailure(rawKey: string, now: Date, forgetAfterMs: number) {
      const key = stored(rawKey);
      const cutoff = new Date(now.getTime() - forgetAfterMs).toISOString();
      await db
        .insert(authThrottle)
        .values({ key, count: 1, windowStart: now })
        .onConflictDoUpdate({
          target: authThrottle.key,
          set: {
            count: sql`case when ${authThrottle.windowStart} <= ${cutoff}::timestamptz then 1 else ${authThrottle.count} + 1 end`,
            windowStart: now,
          },
        });
    },

    peekThrottle: async (key: string) =>
      (
        await db
          .select()
          .from(authThrottle)
          .where(eq(authThrottle.key, stored(key)))
      )[0],

    clearThrottle: (key: string) => db.delete(authThrottle).where(eq(authThrottle.key, stored(key))),
  };
}
