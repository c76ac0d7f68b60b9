import { and, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { forecastAdvisories, forecastHolds, forecastRisks, forecastRuns } from '../../db/schema/index.ts';

/** The holds on districts' advisories (docs/decisions/0128), and what the send reads of the runs. */
export function createHoldRepo(db: Db) {
  return {
    /** The latest run made at or before `at` (the run a send at `at` sends), or null. */
    async lastRunBy(at: Date) {
      const [run] = await db
        .select()
        .from(forecastRuns)
        .where(lte(forecastRuns.ranAt, at))
        .orderBy(desc(forecastRuns.ranAt), desc(forecastRuns.id))
        .limit(1);
      return run ?? null;
    },

    /** A run's high days from `fromDay` on, every district and crop, in day order. */
    highRisks: (runId: number, fromDay: string) =>
      db
        .select({
          district: forecastRisks.district,
          crop: forecastRisks.crop,
          day: forecastRisks.day,
          level: forecastRisks.level,
          basis: forecastRisks.basis,
        })
        .from(forecastRisks)
        .where(
          and(eq(forecastRisks.runId, runId), eq(forecastRisks.level, 'high'), sql`${forecastRisks.day} >= ${fromDay}`),
        )
        .orderBy(forecastRisks.crop, forecastRisks.district, forecastRisks.day),

    /** The districts whose advisories a send at `sendAt` keeps back: held this week and not lifted by then. */
    async blockedAt(weekStart: string, sendAt: Date): Promise<Set<string>> {
      const rows = await db
        .selectDistinct({ district: forecastHolds.district })
        .from(forecastHolds)
        .where(
          and(
            eq(forecastHolds.weekStart, weekStart),
            or(isNull(forecastHolds.liftedAt), gt(forecastHolds.liftedAt, sendAt)),
          ),
        );
      return new Set(rows.map((r) => r.district));
    },

    /** This week's holds, newest first, with the names of who held and lifted. */
    holds: (weekStart: string) =>
      db
        .select({
          id: forecastHolds.id,
          district: forecastHolds.district,
          weekStart: forecastHolds.weekStart,
          reason: forecastHolds.reason,
          heldAt: forecastHolds.heldAt,
          heldBy: sql<string | null>`(select u.username from users u where u.id = ${forecastHolds.heldBy})`,
          liftedAt: forecastHolds.liftedAt,
          liftedBy: sql<string | null>`(select u.username from users u where u.id = ${forecastHolds.liftedBy})`,
        })
        .from(forecastHolds)
        .where(eq(forecastHolds.weekStart, weekStart))
        .orderBy(desc(forecastHolds.heldAt), desc(forecastHolds.id)),

    hold: async (h: typeof forecastHolds.$inferInsert) => {
      const [row] = await db.insert(forecastHolds).values(h).returning();
      return row;
    },

    /** Lifts a hold not lifted yet; undefined when there is none such (gone, or lifted already). */
    async lift(id: number, by: number, at: Date) {
      const [row] = await db
        .update(forecastHolds)
        .set({ liftedBy: by, liftedAt: at })
        .where(and(eq(forecastHolds.id, id), isNull(forecastHolds.liftedAt)))
        .returning();
      return row;
    },

    find: async (id: number) => (await db.select().from(forecastHolds).where(eq(forecastHolds.id, id)))[0],

    /** The advisories of a week already told, per `district|crop`. */
    async toldIn(weekStart: string): Promise<Map<string, Date>> {
      const rows = await db.select().from(forecastAdvisories).where(eq(forecastAdvisories.weekStart, weekStart));
      return new Map(rows.map((r) => [`${r.district}|${r.crop}`, r.toldAt]));
    },
  };
}
export type HoldRepo = ReturnType<typeof createHoldRepo>;
