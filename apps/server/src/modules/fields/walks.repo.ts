import { and, count, desc, eq, gt, gte, inArray, lt, lte, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { analyses, fields, scoutingWalks } from '../../db/schema/index.ts';

export type WalkRow = typeof scoutingWalks.$inferSelect;
export type NewWalk = Omit<typeof scoutingWalks.$inferInsert, 'id'>;

/** Scouting walks: SQL only. */
export function createWalksRepo(db: Db) {
  return {
    /** The field, locked until the transaction ends: walks of one field are written one after the other. */
    async lockField(fieldId: number, tx: Tx) {
      const [row] = await tx.select().from(fields).where(eq(fields.id, fieldId)).for('update');
      return row;
    },

    /** The field's latest walk made at or before `at` (the one a new walk is compared with). */
    async before(fieldId: number, at: Date, tx: Tx): Promise<WalkRow | undefined> {
      const [row] = await tx
        .select()
        .from(scoutingWalks)
        .where(and(eq(scoutingWalks.fieldId, fieldId), lte(scoutingWalks.walkedAt, at)))
        .orderBy(desc(scoutingWalks.walkedAt), desc(scoutingWalks.id))
        .limit(1);
      return row;
    },

    /** Whether the field has a walk made after `at` (other than `id`): an offline walk synced late. */
    async after(fieldId: number, at: Date, id: number, tx: Tx): Promise<boolean> {
      const [row] = await tx
        .select({ id: scoutingWalks.id })
        .from(scoutingWalks)
        .where(and(eq(scoutingWalks.fieldId, fieldId), gt(scoutingWalks.walkedAt, at), ne(scoutingWalks.id, id)))
        .limit(1);
      return Boolean(row);
    },

    /** The new walk; undefined when the owner's idempotency key made one first. */
    async insertOnce(values: NewWalk, tx: Tx): Promise<WalkRow | undefined> {
      const [row] = await tx.insert(scoutingWalks).values(values).onConflictDoNothing().returning();
      return row;
    },

    async markSentToExpert(id: number, tx: Tx): Promise<void> {
      await tx.update(scoutingWalks).set({ sentToExpert: true }).where(eq(scoutingWalks.id, id));
    },

    async byKey(userId: number, key: string): Promise<WalkRow | undefined> {
      const [row] = await db
        .select()
        .from(scoutingWalks)
        .where(and(eq(scoutingWalks.userId, userId), eq(scoutingWalks.idempotencyKey, key)));
      return row;
    },

    async find(id: number): Promise<WalkRow | undefined> {
      const [row] = await db.select().from(scoutingWalks).where(eq(scoutingWalks.id, id));
      return row;
    },

    /** A page of the field's walks, latest walked first. */
    async page(fieldId: number, { limit, offset }: { limit: number; offset: number }) {
      const [rows, [{ n }]] = await Promise.all([
        db
          .select()
          .from(scoutingWalks)
          .where(eq(scoutingWalks.fieldId, fieldId))
          .orderBy(desc(scoutingWalks.walkedAt), desc(scoutingWalks.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(scoutingWalks).where(eq(scoutingWalks.fieldId, fieldId)),
      ]);
      return { rows, total: n };
    },

    /** Each field's latest walk. */
    async latestOf(fieldIds: number[]): Promise<Map<number, WalkRow>> {
      if (fieldIds.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([scoutingWalks.fieldId])
        .from(scoutingWalks)
        .where(inArray(scoutingWalks.fieldId, fieldIds))
        .orderBy(scoutingWalks.fieldId, desc(scoutingWalks.walkedAt), desc(scoutingWalks.id));
      return new Map(rows.map((r) => [r.fieldId, r]));
    },

    /** Of these analysis ids, those that are the owner's photos of the field (the analyses table, read only). */
    async photosOfField(userId: number, fieldId: number, ids: number[], tx: Tx): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await tx
        .select({ id: analyses.id })
        .from(analyses)
        .where(and(inArray(analyses.id, ids), eq(analyses.userId, userId), eq(analyses.fieldId, fieldId)));
      return new Set(rows.map((r) => r.id));
    },

    /**
     * Walks of the district's fields made in [from, to): with `worse`, only those worse than the walk before
     * that went to no expert (no leaf photo at a stop): what the officers' week lists.
     */
    async inDistrict(district: string, from: Date, to: Date, worse: boolean) {
      return db
        .select({ walk: scoutingWalks, fieldName: fields.name, crop: fields.crop, district: fields.district })
        .from(scoutingWalks)
        .innerJoin(fields, eq(fields.id, scoutingWalks.fieldId))
        .where(
          and(
            eq(fields.district, district),
            gte(scoutingWalks.walkedAt, from),
            lt(scoutingWalks.walkedAt, to),
            worse ? and(eq(scoutingWalks.comparison, 'worse'), eq(scoutingWalks.sentToExpert, false)) : undefined,
          ),
        )
        .orderBy(desc(scoutingWalks.walkedAt), desc(scoutingWalks.id))
        .limit(1000);
    },
  };
}
