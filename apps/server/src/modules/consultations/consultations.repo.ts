import type { Db, Tx } from '../../db/client.ts';
import { createAvailabilityRepo } from './availability.repo.ts';
import { createBookingsRepo } from './bookings.repo.ts';
import { createRemindersRepo } from './reminders.repo.ts';
import { createSlotsRepo } from './slots.repo.ts';

export type { BookingRow } from './bookings.repo.ts';
export type { SlotRow } from './slots.repo.ts';

/** Postgres' unique_violation (23505) on the named constraint, through Drizzle's error wrapper. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e = err as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined; e; ) {
    if (e.code === '23505' && (e.constraint === constraint || e.message?.includes(constraint))) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** The consultations module's queries, kept by job: slots, availability rules, bookings, reminders. */
export function createConsultationsRepo(db: Db) {
  return {
    transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      return db.transaction(fn);
    },
    ...createSlotsRepo(db),
    ...createAvailabilityRepo(db),
    ...createBookingsRepo(db),
    ...createRemindersRepo(db),
  };
}
