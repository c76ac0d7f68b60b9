import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/index.ts';

/** Booking reminders: which are due, claimed once. */
export function createRemindersRepo(db: Db) {
  return {
    /**
     * Claims the approved bookings whose reminder `lead` before the start is due and not yet sent,
     * marking them sent in the same statement, so two runs (or two processes) never both send one.
     * Due: the start is within `lead` but after `notBefore` from now, and the booking was approved
     * before the reminder point (a later approval message already said when).
     */
    async claimReminders(kind: '24h' | '1h', now: Date, leadMs: number, notBeforeMs: number) {
      const column = kind === '24h' ? bookings.reminded24hAt : bookings.reminded1hAt;
      const rows = await db
        .update(bookings)
        .set(kind === '24h' ? { reminded24hAt: now } : { reminded1hAt: now })
        .where(
          and(
            eq(bookings.status, 'approved'),
            isNull(column),
            gt(bookings.selectedDate, new Date(now.getTime() + notBeforeMs)),
            lte(bookings.selectedDate, new Date(now.getTime() + leadMs)),
            sql`${bookings.decidedAt} <= ${bookings.selectedDate} - make_interval(secs => ${leadMs / 1000})`,
          ),
        )
        .returning({ id: bookings.id });
      return rows.map((r) => r.id);
    },
  };
}
