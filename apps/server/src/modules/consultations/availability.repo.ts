import { and, eq, gt, gte, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { availabilityRules, availabilitySlots } from '../../db/schema/index.ts';
import { liveBooking, type Meeting } from './slots.repo.ts';

/** Repeating availability: an expert's rules and the slots each rule makes. */
export function createAvailabilityRepo(db: Db) {
  return {
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
  };
}
