import { and, count, desc, eq, gt, gte, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { BookingStatus, MeetingMode } from '@kutu/contract';
import type { Db, Tx } from '../../db/client.ts';
import {
  analyses,
  availabilityRules,
  availabilitySlots,
  bookings,
  expertProfiles,
  users,
} from '../../db/schema/index.ts';

/** A live booking holds its slot: pending or approved (a rejection or a cancellation frees it). */
const LIVE: BookingStatus[] = ['pending', 'approved'];
const liveBooking = (slotId: SQL | typeof availabilitySlots.id) =>
  sql<boolean>`exists (select 1 from ${bookings} b where b.slot_id = ${slotId} and b.status in ('pending', 'approved'))`;

export interface Meeting {
  mode: MeetingMode;
  place: string | null;
  videoUrl: string | null;
}

const slotColumns = {
  id: availabilitySlots.id,
  expertId: availabilitySlots.expertId,
  startTime: availabilitySlots.startTime,
  endTime: availabilitySlots.endTime,
  isActive: availabilitySlots.isActive,
  isBooked: liveBooking(availabilitySlots.id).as('is_booked'),
  mode: availabilitySlots.mode,
  place: availabilitySlots.place,
  videoUrl: availabilitySlots.videoUrl,
  ruleId: availabilitySlots.ruleId,
  username: users.username,
  bio: expertProfiles.bio,
  areasOfExpertise: expertProfiles.areasOfExpertise,
  certifications: expertProfiles.certifications,
};
export type SlotRow = Meeting & {
  ruleId: number | null;
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
  farmerPhone: farmerUser.phone,
  expertId: availabilitySlots.expertId,
  expertUsername: expertUser.username,
  expertEmail: expertUser.email,
  expertPhone: expertUser.phone,
  topic: bookings.topic,
  analysisId: bookings.analysisId,
  analysisClass: analyses.rustClass,
  analysisConfidence: analyses.confidence,
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
   * `earliest`, the first start of all matching slots, tells a cache when a list that depends on the
   * time changes by itself (docs/decisions/0025).
   */
  function slotsPage(where: SQL, name: string) {
    const query = db
      .select({
        ...slotColumns,
        total: sql<number>`cast(count(*) over () as int)`,
        earliest: sql<Date>`min(${availabilitySlots.startTime}) over ()`.mapWith(availabilitySlots.startTime),
      })
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
      const first = rows[0] ?? (offset > 0 ? (await query.execute({ ...params, limit: 1, offset: 0 }))[0] : undefined);
      return {
        rows: rows.map(({ total: _, earliest: __, ...row }) => row as SlotRow),
        total: first?.total ?? 0,
        earliest: first?.earliest ?? null,
      };
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
  const bookableAt = (now: Date) =>
    and(
      eq(availabilitySlots.isActive, true),
      gt(availabilitySlots.startTime, now),
      sql`not ${liveBooking(availabilitySlots.id)}`,
    ) as SQL;
  function bookingsQuery(where: SQL | undefined) {
    return db
      .select(bookingColumns)
      .from(bookings)
      .innerJoin(availabilitySlots, eq(availabilitySlots.id, bookings.slotId))
      .innerJoin(farmerUser, eq(farmerUser.id, bookings.farmerId))
      .innerJoin(expertUser, eq(expertUser.id, availabilitySlots.expertId))
      .leftJoin(analyses, eq(analyses.id, bookings.analysisId))
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

    async insertSlot(tx: Tx, row: { expertId: number; startTime: Date; endTime: Date } & Meeting) {
      const [created] = await tx.insert(availabilitySlots).values(row).returning({ id: availabilitySlots.id });
      return created.id;
    },

    /** The expert's active slots that overlap [from, to), for checking many new slots at once. */
    async activeSlotsBetween(tx: Tx, expertId: number, from: Date, to: Date) {
      return tx
        .select({ startTime: availabilitySlots.startTime, endTime: availabilitySlots.endTime })
        .from(availabilitySlots)
        .where(
          and(
            eq(availabilitySlots.expertId, expertId),
            eq(availabilitySlots.isActive, true),
            lt(availabilitySlots.startTime, to),
            gt(availabilitySlots.endTime, from),
          ),
        );
    },

    /** A rule's slot; a start time the rule already made is left as it is (returns false). */
    async insertGeneratedSlot(
      tx: Tx,
      row: { expertId: number; ruleId: number; startTime: Date; endTime: Date } & Meeting,
    ): Promise<boolean> {
      const made = await tx
        .insert(availabilitySlots)
        .values(row)
        .onConflictDoNothing({ target: [availabilitySlots.ruleId, availabilitySlots.startTime] })
        .returning({ id: availabilitySlots.id });
      return made.length > 0;
    },

    /** Start times the rule has made in [from, to), active or not: generation never remakes them. */
    async ruleStartTimes(tx: Tx, ruleId: number, from: Date, to: Date) {
      const rows = await tx
        .select({ startTime: availabilitySlots.startTime })
        .from(availabilitySlots)
        .where(
          and(
            eq(availabilitySlots.ruleId, ruleId),
            gte(availabilitySlots.startTime, from),
            lt(availabilitySlots.startTime, to),
          ),
        );
      return new Set(rows.map((r) => r.startTime.getTime()));
    },

    async insertRule(tx: Tx, row: typeof availabilityRules.$inferInsert) {
      const [created] = await tx.insert(availabilityRules).values(row).returning();
      return created;
    },

    async expertRules(expertId: number) {
      return db
        .select()
        .from(availabilityRules)
        .where(and(eq(availabilityRules.expertId, expertId), eq(availabilityRules.isActive, true)))
        .orderBy(availabilityRules.id);
    },

    async activeRules() {
      return db.select().from(availabilityRules).where(eq(availabilityRules.isActive, true));
    },

    async findRule(tx: Tx, id: number) {
      const [row] = await tx.select().from(availabilityRules).where(eq(availabilityRules.id, id)).for('update');
      return row;
    },

    /** Ends a rule and takes its future slots that nobody holds off the list; booked ones stay. */
    async endRule(tx: Tx, id: number, now: Date) {
      await tx.update(availabilityRules).set({ isActive: false }).where(eq(availabilityRules.id, id));
      const ended = await tx
        .update(availabilitySlots)
        .set({ isActive: false })
        .where(
          and(
            eq(availabilitySlots.ruleId, id),
            eq(availabilitySlots.isActive, true),
            gt(availabilitySlots.startTime, now),
            sql`not ${liveBooking(availabilitySlots.id)}`,
          ),
        )
        .returning({ id: availabilitySlots.id });
      return ended.length;
    },

    /** Whose analysis this is (undefined when there is none). */
    async analysisOwner(id: number) {
      const [row] = await db.select({ userId: analyses.userId }).from(analyses).where(eq(analyses.id, id));
      return row?.userId;
    },

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

    /**
     * A page of the experts who have bookable slots (the one with the soonest slot first), the number of
     * such experts, the soonest start of all, and every bookable slot of the page's experts.
     */
    async bookableByExpert(now: Date, limit: number, offset: number) {
      const where = bookableAt(now);
      const first = sql<Date>`min(${availabilitySlots.startTime})`.mapWith(availabilitySlots.startTime);
      const experts = (take: number, skip: number) =>
        db
          .select({
            expertId: availabilitySlots.expertId,
            total: sql<number>`cast(count(*) over () as int)`,
            earliest: sql<Date>`min(min(${availabilitySlots.startTime})) over ()`.mapWith(availabilitySlots.startTime),
          })
          .from(availabilitySlots)
          .where(where)
          .groupBy(availabilitySlots.expertId)
          .orderBy(first, availabilitySlots.expertId)
          .limit(take)
          .offset(skip);
      let page = await experts(limit, offset);
      // A page past the end has no row to carry the count: the first expert does.
      const head = page[0] ?? (offset > 0 ? (await experts(1, 0))[0] : undefined);
      const ids = page.map((e) => e.expertId);
      const rows: SlotRow[] =
        ids.length === 0
          ? []
          : await db
              .select(slotColumns)
              .from(availabilitySlots)
              .innerJoin(users, eq(users.id, availabilitySlots.expertId))
              .leftJoin(expertProfiles, eq(expertProfiles.userId, availabilitySlots.expertId))
              .where(and(where, inArray(availabilitySlots.expertId, ids)))
              .orderBy(availabilitySlots.startTime, availabilitySlots.id);
      page = page.filter((e) => rows.some((r) => r.expertId === e.expertId));
      return {
        experts: page.map((e) => e.expertId),
        rows,
        total: head?.total ?? 0,
        earliest: head?.earliest ?? null,
      };
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
        .where(and(eq(bookings.slotId, slotId), inArray(bookings.status, LIVE)))
        .limit(1);
      return row;
    },

    async deactivateSlot(tx: Tx, id: number) {
      await tx.update(availabilitySlots).set({ isActive: false }).where(eq(availabilitySlots.id, id));
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
