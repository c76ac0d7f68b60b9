import { and, count, desc, eq, gt, lt, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { BookingStatus } from '@kutu/contract';
import type { Db, Tx } from '../../db/client.ts';
import { availabilitySlots, bookings, expertProfiles, users } from '../../db/schema/index.ts';

/** A live booking holds its slot: pending or approved. */
const liveBooking = (slotId: SQL | typeof availabilitySlots.id) =>
  sql<boolean>`exists (select 1 from ${bookings} b where b.slot_id = ${slotId} and b.status <> 'rejected')`;

const slotColumns = {
  id: availabilitySlots.id,
  expertId: availabilitySlots.expertId,
  startTime: availabilitySlots.startTime,
  endTime: availabilitySlots.endTime,
  isActive: availabilitySlots.isActive,
  isBooked: liveBooking(availabilitySlots.id).as('is_booked'),
  username: users.username,
  bio: expertProfiles.bio,
  areasOfExpertise: expertProfiles.areasOfExpertise,
  certifications: expertProfiles.certifications,
};
export type SlotRow = {
  id: number;
  expertId: number;
  startTime: Date;
  endTime: Date;
  isActive: boolean;
  isBooked: boolean;
  username: string;
  bio: string | null;
  areasOfExpertise: string | null;
  certifications: string | null;
};

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
  expertId: availabilitySlots.expertId,
  expertUsername: expertUser.username,
  slotId: availabilitySlots.id,
  slotStart: availabilitySlots.startTime,
  slotEnd: availabilitySlots.endTime,
};
export type BookingRow = {
  id: number;
  status: BookingStatus;
  selectedDate: Date | null;
  reason: string | null;
  createdAt: Date;
  decidedAt: Date | null;
  farmerId: number;
  farmerUsername: string;
  farmerEmail: string;
  expertId: number;
  expertUsername: string;
  slotId: number;
  slotStart: Date;
  slotEnd: Date;
};

/** Postgres' unique_violation (23505) on the named constraint, through Drizzle's error wrapper. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e = err as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined; e; ) {
    if (e.code === '23505' && (e.constraint === constraint || e.message?.includes(constraint))) return true;
    e = e.cause as typeof e;
  }
  return false;
}

export function createConsultationsRepo(db: Db) {
  /**
   * A page of slots and the number of matching ones in one query (the count as a window), as a named
   * prepared statement: PostgreSQL parses and plans it once per connection (docs/decisions/0015).
   */
  function slotsPage(where: SQL, name: string) {
    const query = db
      .select({ ...slotColumns, total: sql<number>`cast(count(*) over () as int)` })
      .from(availabilitySlots)
      .innerJoin(users, eq(users.id, availabilitySlots.expertId))
      .leftJoin(expertProfiles, eq(expertProfiles.userId, availabilitySlots.expertId))
      .where(where)
      .orderBy(availabilitySlots.startTime, availabilitySlots.id)
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
    return async (params: Record<string, unknown>, limit: number, offset: number) => {
      const rows = await query.execute({ ...params, limit, offset });
      // A page past the end has no row to carry the count: the first row of the first page does.
      const total =
        rows[0]?.total ?? (offset > 0 ? ((await query.execute({ ...params, limit: 1, offset: 0 }))[0]?.total ?? 0) : 0);
      return { rows: rows.map(({ total: _, ...row }) => row as SlotRow), total };
    };
  }
  const slotById = slotsPage(eq(availabilitySlots.id, sql.placeholder('id')), 'slot_by_id');
  const slotsOfExpert = slotsPage(eq(availabilitySlots.expertId, sql.placeholder('expertId')), 'slots_of_expert');
  const bookable = slotsPage(
    and(
      eq(availabilitySlots.isActive, true),
      gt(availabilitySlots.startTime, sql.placeholder('now')),
      sql`not ${liveBooking(availabilitySlots.id)}`,
    ) as SQL,
    'slots_bookable',
  );
  function bookingsQuery(where: SQL | undefined) {
    return db
      .select(bookingColumns)
      .from(bookings)
      .innerJoin(availabilitySlots, eq(availabilitySlots.id, bookings.slotId))
      .innerJoin(farmerUser, eq(farmerUser.id, bookings.farmerId))
      .innerJoin(expertUser, eq(expertUser.id, availabilitySlots.expertId))
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
    transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      return db.transaction(fn);
    },

    /** The expert's active slots that overlap [start, end). */
    async overlappingActiveSlots(tx: Tx, expertId: number, start: Date, end: Date) {
      return tx
        .select({
          id: availabilitySlots.id,
          startTime: availabilitySlots.startTime,
          endTime: availabilitySlots.endTime,
        })
        .from(availabilitySlots)
        .where(
          and(
            eq(availabilitySlots.expertId, expertId),
            eq(availabilitySlots.isActive, true),
            lt(availabilitySlots.startTime, end),
            gt(availabilitySlots.endTime, start),
          ),
        )
        .limit(1);
    },

    /** Serialises slot creation per expert, so two overlapping requests cannot both pass the check. */
    async lockExpert(tx: Tx, expertId: number) {
      await tx.execute(sql`select pg_advisory_xact_lock(${7_001}, ${expertId})`);
    },

    async insertSlot(tx: Tx, row: { expertId: number; startTime: Date; endTime: Date }) {
      const [created] = await tx.insert(availabilitySlots).values(row).returning({ id: availabilitySlots.id });
      return created.id;
    },

    async findSlot(id: number): Promise<SlotRow | undefined> {
      return (await slotById({ id }, 1, 0)).rows[0];
    },

    async expertSlots(expertId: number, limit: number, offset: number) {
      return slotsOfExpert({ expertId }, limit, offset);
    },

    /** Active, unbooked slots starting after `now`, soonest first. */
    async bookableSlots(now: Date, limit: number, offset: number) {
      return bookable({ now }, limit, offset);
    },

    /** The slot row, locked until the transaction ends (booking and deactivation take this lock). */
    async lockSlot(tx: Tx, id: number) {
      const [row] = await tx
        .select({
          id: availabilitySlots.id,
          expertId: availabilitySlots.expertId,
          startTime: availabilitySlots.startTime,
          endTime: availabilitySlots.endTime,
          isActive: availabilitySlots.isActive,
        })
        .from(availabilitySlots)
        .where(eq(availabilitySlots.id, id))
        .for('update');
      return row;
    },

    async liveBookingOn(tx: Tx, slotId: number) {
      const [row] = await tx
        .select({ id: bookings.id, farmerId: bookings.farmerId, status: bookings.status })
        .from(bookings)
        .where(and(eq(bookings.slotId, slotId), ne(bookings.status, 'rejected')))
        .limit(1);
      return row;
    },

    async deactivateSlot(tx: Tx, id: number) {
      await tx.update(availabilitySlots).set({ isActive: false }).where(eq(availabilitySlots.id, id));
    },

    async insertBooking(tx: Tx, row: { slotId: number; farmerId: number }) {
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
export type ConsultationsRepo = ReturnType<typeof createConsultationsRepo>;
