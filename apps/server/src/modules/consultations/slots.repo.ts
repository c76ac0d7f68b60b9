import { and, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { BookingStatus, MeetingMode } from '@kutu/contract';
import type { Db, Tx } from '../../db/client.ts';
import { availabilitySlots, bookings, users } from '../../db/schema/index.ts';
import { expertFacts } from '../auth/account.service.ts';

/** A live booking holds its slot: pending or approved (a rejection or a cancellation frees it). */
export const LIVE: BookingStatus[] = ['pending', 'approved'];
export const liveBooking = (slotId: SQL | typeof availabilitySlots.id) =>
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
  bio: expertFacts.bio,
  areasOfExpertise: expertFacts.areasOfExpertise,
  certifications: expertFacts.certifications,
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

/** Slots: an expert's own, the bookable ones (by slot and by expert), and making and locking one. */
export function createSlotsRepo(db: Db) {
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
      .leftJoin(expertFacts, eq(expertFacts.userId, availabilitySlots.expertId))
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

  return {
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
              .leftJoin(expertFacts, eq(expertFacts.userId, availabilitySlots.expertId))
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

    async deactivateSlot(tx: Tx, id: number) {
      await tx.update(availabilitySlots).set({ isActive: false }).where(eq(availabilitySlots.id, id));
    },
  };
}
