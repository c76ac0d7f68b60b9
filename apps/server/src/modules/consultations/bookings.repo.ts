import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { BookingStatus } from '@kutu/contract';
import type { Db, Tx } from '../../db/client.ts';
import { availabilitySlots, bookings, users } from '../../db/schema/index.ts';
import { analysisFacts } from '../analysis/analysis.service.ts';
import { LIVE, type Meeting } from './slots.repo.ts';

const farmerUser = alias(users, 'farmer_user');
const expertUser = alias(users, 'expert_user');
const bookingColumns = {
  id: bookings.id,
  status: bookings.status,
  selectedDate: bookings.selectedDate,
  reason: bookings.reason,
  createdAt: bookings.createdAt,
  decidedAt: bookings.decidedAt,
  farmerId: bookings.farmerId,
  farmerUsername: farmerUser.username,
  farmerEmail: farmerUser.email,
  farmerPhone: farmerUser.phone,
  expertId: availabilitySlots.expertId,
  expertUsername: expertUser.username,
  expertEmail: expertUser.email,
  expertPhone: expertUser.phone,
  topic: bookings.topic,
  analysisId: bookings.analysisId,
  analysisClass: analysisFacts.rustClass,
  analysisConfidence: analysisFacts.confidence,
  analysisCrop: analysisFacts.crop,
  mode: availabilitySlots.mode,
  place: availabilitySlots.place,
  videoUrl: availabilitySlots.videoUrl,
  cancelledBy: bookings.cancelledBy,
  cancelledAt: bookings.cancelledAt,
  sequence: bookings.sequence,
  slotId: availabilitySlots.id,
  slotStart: availabilitySlots.startTime,
  slotEnd: availabilitySlots.endTime,
};
export type BookingRow = Meeting & {
  farmerPhone: string;
  expertEmail: string;
  expertPhone: string;
  topic: string;
  analysisId: number | null;
  analysisClass: string | null;
  analysisConfidence: number | null;
  analysisCrop: string | null;
  cancelledBy: 'farmer' | 'expert' | null;
  cancelledAt: Date | null;
  sequence: number;
  id: number;
  status: BookingStatus;
  selectedDate: Date | null;
  reason: string | null;
  createdAt: Date;
  decidedAt: Date | null;
  farmerId: number;
  farmerUsername: string;
  /** Null for a farmer who signed up by phone only. */
  farmerEmail: string | null;
  expertId: number;
  expertUsername: string;
  slotId: number;
  slotStart: Date;
  slotEnd: Date;
};

/** Bookings: made on a slot, decided or cancelled, and listed for the farmer and the expert. */
export function createBookingsRepo(db: Db) {
  function bookingsQuery(where: SQL | undefined) {
    return db
      .select(bookingColumns)
      .from(bookings)
      .innerJoin(availabilitySlots, eq(availabilitySlots.id, bookings.slotId))
      .innerJoin(farmerUser, eq(farmerUser.id, bookings.farmerId))
      .innerJoin(expertUser, eq(expertUser.id, availabilitySlots.expertId))
      .leftJoin(analysisFacts, eq(analysisFacts.id, bookings.analysisId))
      .where(where);
  }
  async function countBookings(where: SQL | undefined) {
    const [row] = await db
      .select({ n: count() })
      .from(bookings)
      .innerJoin(availabilitySlots, eq(availabilitySlots.id, bookings.slotId))
      .where(where);
    return row?.n ?? 0;
  }

  return {
    /** Whose analysis this is (undefined when there is none). */
    async analysisOwner(id: number) {
      const [row] = await db
        .select({ userId: analysisFacts.userId })
        .from(analysisFacts)
        .where(eq(analysisFacts.id, id));
      return row?.userId;
    },

    async liveBookingOn(tx: Tx, slotId: number) {
      const [row] = await tx
        .select({ id: bookings.id, farmerId: bookings.farmerId, status: bookings.status })
        .from(bookings)
        .where(and(eq(bookings.slotId, slotId), inArray(bookings.status, LIVE)))
        .limit(1);
      return row;
    },

    async insertBooking(tx: Tx, row: { slotId: number; farmerId: number; topic: string; analysisId: number | null }) {
      const [created] = await tx.insert(bookings).values(row).returning({ id: bookings.id });
      return created.id;
    },

    async findBooking(id: number): Promise<BookingRow | undefined> {
      const [row] = await bookingsQuery(eq(bookings.id, id)).limit(1);
      return row as BookingRow | undefined;
    },

    /** The booking with its slot's expert and window, locked until the transaction ends. */
    async lockBooking(tx: Tx, id: number) {
      const [row] = await tx
        .select({
          id: bookings.id,
          status: bookings.status,
          farmerId: bookings.farmerId,
          selectedDate: bookings.selectedDate,
          expertId: availabilitySlots.expertId,
          slotStart: availabilitySlots.startTime,
          slotEnd: availabilitySlots.endTime,
        })
        .from(bookings)
        .innerJoin(availabilitySlots, eq(availabilitySlots.id, bookings.slotId))
        .where(eq(bookings.id, id))
        .for('update', { of: bookings });
      return row;
    },

    async decideBooking(
      tx: Tx,
      id: number,
      decision: { status: 'approved' | 'rejected'; selectedDate: Date | null; reason: string | null; decidedAt: Date },
    ) {
      await tx.update(bookings).set(decision).where(eq(bookings.id, id));
    },

    /** The expert's live bookings (pending or approved) that start after `now`, locked until the transaction ends. */
    async comingBookingsOfExpert(tx: Tx, expertId: number, now: Date): Promise<number[]> {
      const rows = await tx
        .select({ id: bookings.id })
        .from(bookings)
        .innerJoin(availabilitySlots, eq(availabilitySlots.id, bookings.slotId))
        .where(
          and(
            eq(availabilitySlots.expertId, expertId),
            inArray(bookings.status, LIVE),
            sql`coalesce(${bookings.selectedDate}, ${availabilitySlots.startTime}) > ${now}`,
          ),
        )
        .for('update', { of: bookings });
      return rows.map((r) => r.id);
    },

    /** Cancelled: the slot is free again, and the calendar event's SEQUENCE moves on. */
    async cancelBooking(tx: Tx, id: number, by: 'farmer' | 'expert', reason: string | null, at: Date) {
      await tx
        .update(bookings)
        .set({
          status: 'cancelled',
          cancelledBy: by,
          cancelledAt: at,
          reason,
          sequence: sql`${bookings.sequence} + 1`,
        })
        .where(eq(bookings.id, id));
    },

    async expertBookings(expertId: number, status: BookingStatus | undefined, limit: number, offset: number) {
      const where = and(eq(availabilitySlots.expertId, expertId), status ? eq(bookings.status, status) : undefined);
      const [rows, total] = await Promise.all([
        bookingsQuery(where).orderBy(desc(bookings.createdAt), desc(bookings.id)).limit(limit).offset(offset),
        countBookings(where),
      ]);
      return { rows: rows as BookingRow[], total };
    },

    async farmerBookings(farmerId: number, status: BookingStatus | undefined, limit: number, offset: number) {
      const where = and(eq(bookings.farmerId, farmerId), status ? eq(bookings.status, status) : undefined);
      const [rows, total] = await Promise.all([
        bookingsQuery(where).orderBy(desc(bookings.createdAt), desc(bookings.id)).limit(limit).offset(offset),
        countBookings(where),
      ]);
      return { rows: rows as BookingRow[], total };
    },
  };
}
