import { and, count, desc, eq, getTableColumns, isNull, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { clinicVisits, users } from '../../db/schema/index.ts';
import { farmerFacts } from '../auth/account.service.ts';
import { fieldFacts, walkFacts } from '../fields/fields.service.ts';

export type VisitRow = typeof clinicVisits.$inferSelect;
type Decision = Pick<VisitRow, 'verdict' | 'severity' | 'recommendation' | 'decidedAt'>;

const farmers = alias(users, 'farmer');
const experts = alias(users, 'expert');

/** The farmer's name as given at the clinic or on a basic phone, else the username (a web sign-up's). */
const farmerName = sql<string>`coalesce(${farmerFacts.name}, ${farmers.username})`;

/** A visit with the farmer, the expert, the field's name and the walk's counts as the records show them. */
const recordColumns = {
  visit: clinicVisits,
  farmerName,
  farmerPhone: farmers.phone,
  district: farmers.district,
  expertName: experts.username,
  fieldName: fieldFacts.name,
  plantsLooked: walkFacts.plantsLooked,
  plantsRust: walkFacts.plantsRust,
};

export function createClinicRepo(db: Db) {
  const records = () =>
    db
      .select(recordColumns)
      .from(clinicVisits)
      .innerJoin(farmers, eq(farmers.id, clinicVisits.farmerId))
      .leftJoin(farmerFacts, eq(farmerFacts.userId, clinicVisits.farmerId))
      .innerJoin(experts, eq(experts.id, clinicVisits.expertId))
      .leftJoin(fieldFacts, eq(fieldFacts.id, clinicVisits.fieldId))
      .leftJoin(walkFacts, eq(walkFacts.id, clinicVisits.walkId));

  return {
    /** The account of a phone number, whatever its role (the caller refuses one that is not a farmer's). */
    async accountByPhone(phone: string) {
      const [row] = await db.select().from(users).where(eq(users.phone, phone));
      return row;
    },

    /** The farmer's account, with the name they gave (`name`, null for a web sign-up). */
    async account(id: number) {
      const [row] = await db
        .select({ ...getTableColumns(users), name: farmerFacts.name })
        .from(users)
        .leftJoin(farmerFacts, eq(farmerFacts.userId, users.id))
        .where(eq(users.id, id));
      return row;
    },

    async byKey(expertId: number, key: string): Promise<VisitRow | undefined> {
      const [row] = await db
        .select()
        .from(clinicVisits)
        .where(and(eq(clinicVisits.expertId, expertId), eq(clinicVisits.idempotencyKey, key)));
      return row;
    },

    /** The new visit; undefined when the expert's idempotency key made one first (a concurrent retry). */
    async insert(values: typeof clinicVisits.$inferInsert): Promise<VisitRow | undefined> {
      const [row] = await db.insert(clinicVisits).values(values).onConflictDoNothing().returning();
      return row;
    },

    async find(id: number): Promise<VisitRow | undefined> {
      const [row] = await db.select().from(clinicVisits).where(eq(clinicVisits.id, id));
      return row;
    },

    /** The one decision of a visit; undefined when it has one already. */
    async decide(id: number, decision: Decision): Promise<VisitRow | undefined> {
      const [row] = await db
        .update(clinicVisits)
        .set(decision)
        .where(and(eq(clinicVisits.id, id), isNull(clinicVisits.verdict)))
        .returning();
      return row;
    },

    /** The photos' verdicts failed: the visit waits for the expert's answer again. */
    async undecide(id: number): Promise<void> {
      await db
        .update(clinicVisits)
        .set({ verdict: null, severity: null, recommendation: null, decidedAt: null })
        .where(eq(clinicVisits.id, id));
    },

    /** Claims the visit's result SMS: true once, for the one request that writes it. */
    async claimResultSms(id: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(clinicVisits)
        .set({ resultSmsAt: now })
        .where(and(eq(clinicVisits.id, id), isNull(clinicVisits.resultSmsAt)))
        .returning({ id: clinicVisits.id });
      return rows.length === 1;
    },

    /** One page of the expert's own records, newest first. */
    async page(expertId: number, window: { limit: number; offset: number }) {
      const [rows, [{ n }]] = await Promise.all([
        records()
          .where(eq(clinicVisits.expertId, expertId))
          .orderBy(desc(clinicVisits.createdAt), desc(clinicVisits.id))
          .limit(window.limit)
          .offset(window.offset),
        db.select({ n: count() }).from(clinicVisits).where(eq(clinicVisits.expertId, expertId)),
      ]);
      return { rows, total: n };
    },

    /** The expert's records older than `beforeId` (keyset), newest first: the CSV reads them in batches. */
    batch(expertId: number, beforeId: number, limit: number) {
      return records()
        .where(and(eq(clinicVisits.expertId, expertId), lt(clinicVisits.id, beforeId)))
        .orderBy(desc(clinicVisits.id))
        .limit(limit);
    },
  };
}
export type ClinicRepo = ReturnType<typeof createClinicRepo>;
export type RecordRow = Awaited<ReturnType<ClinicRepo['batch']>>[number];
