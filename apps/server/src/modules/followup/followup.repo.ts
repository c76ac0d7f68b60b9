import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { followUps } from '../../db/schema/index.ts';
import type { FactColumn, FactsPort } from '../../lib/facts-port.ts';
import type { ComparedAnswer } from './compare.ts';

export type FollowUpRow = typeof followUps.$inferSelect;
type Closing = Pick<FollowUpRow, 'state' | 'nextAnalysisId' | 'outcome' | 'escalated' | 'closedAt'> &
  Partial<Pick<FollowUpRow, 'nextWalkId'>>;
type Opening = Pick<FollowUpRow, 'userId' | 'fieldId' | 'crop' | 'dueAt' | 'createdAt'> &
  Partial<Pick<FollowUpRow, 'analysisId' | 'walkId' | 'byUssd'>>;

const isOpen = inArray(followUps.state, ['waiting', 'sent']);

/**
 * What the follow-ups read of diagnoses and fields, read only: the analysis module's `diagnosisFacts` and
 * the fields module's `fieldNameFacts` and `liveFieldFacts`. Both modules use this one (a photo or a walk
 * answers a reminder), so services.ts hands them in.
 */
export interface FollowUpSources {
  diagnoses: FactsPort<{
    id: FactColumn<number>;
    crop: FactColumn<string, false>;
    createdAt: FactColumn<Date>;
    outcome: FactColumn<'diagnosis' | 'not_leaf'>;
    rustClass: FactColumn<string, false>;
    unsure: FactColumn<boolean>;
    confidence: FactColumn<number>;
    probabilities: FactColumn<Record<string, number>>;
    rustShare: FactColumn<number, false>;
  }>;
  fields: FactsPort<{
    id: FactColumn<number>;
    name: FactColumn<string>;
    number: FactColumn<number>;
    retiredAt: FactColumn<Date, false>;
  }>;
  liveFields: FactsPort<{ id: FactColumn<number>; crop: FactColumn<string>; district: FactColumn<string, false> }>;
}

export function createFollowUpRepo(db: Db, { diagnoses, fields, liveFields }: FollowUpSources) {
  return {
    /**
     * The reminder of a treat diagnosis or of a walk that found rust, unless the diagnosis or walk has one or
     * the field has an open one (unique indexes): a retried or concurrent request creates nothing more.
     */
    async open(values: Opening, runner: Db | Tx = db) {
      const [row] = await runner.insert(followUps).values(values).onConflictDoNothing().returning();
      return row;
    },

    /**
     * Brings the waiting reminders of the live fields of a crop in a district forward to `by` (a rust-weather
     * week, docs/decisions/0100); one due sooner stays. Returns how many moved.
     */
    async bringForward(district: string, crop: string, by: Date) {
      const moved = await db
        .update(followUps)
        .set({ dueAt: by })
        .where(
          and(
            eq(followUps.state, 'waiting'),
            sql`${followUps.dueAt} > ${by}`,
            inArray(
              followUps.fieldId,
              db
                .select({ id: liveFields.id })
                .from(liveFields)
                .where(and(eq(liveFields.district, district), eq(liveFields.crop, crop))),
            ),
          ),
        )
        .returning({ id: followUps.id });
      return moved.length;
    },

    /** The field's open reminder (waiting or sent), if any; locked until the transaction ends in one. */
    async openForField(fieldId: number, runner: Db | Tx = db): Promise<FollowUpRow | undefined> {
      const query = runner
        .select()
        .from(followUps)
        .where(and(eq(followUps.fieldId, fieldId), isOpen));
      const [row] = runner === db ? await query : await query.for('update');
      return row;
    },

    /** The farmer's open reminders of a diagnosis, with its crop, time and field, newest diagnosis first. */
    async openOf(userId: number, limit: number) {
      return db
        .select({
          analysisId: diagnoses.id,
          crop: diagnoses.crop,
          analysedAt: diagnoses.createdAt,
          state: followUps.state,
          dueAt: followUps.dueAt,
          fieldId: followUps.fieldId,
          fieldName: fields.name,
        })
        .from(followUps)
        .innerJoin(diagnoses, eq(diagnoses.id, followUps.analysisId))
        .innerJoin(fields, eq(fields.id, followUps.fieldId))
        .where(and(eq(followUps.userId, userId), isOpen))
        .orderBy(desc(diagnoses.createdAt), desc(diagnoses.id))
        .limit(limit);
    },

    /** The farmer's oldest open reminder (answered by phone when there is no photo). */
    async oldestOpen(userId: number): Promise<FollowUpRow | undefined> {
      const [row] = await db
        .select()
        .from(followUps)
        .where(and(eq(followUps.userId, userId), isOpen))
        .orderBy(followUps.createdAt, followUps.id)
        .limit(1);
      return row;
    },

    /** One of the farmer's open reminders, locked until the transaction ends. */
    async ownOpen(userId: number, id: number, tx: Tx): Promise<FollowUpRow | undefined> {
      const [row] = await tx
        .select()
        .from(followUps)
        .where(and(eq(followUps.id, id), eq(followUps.userId, userId), isOpen))
        .for('update');
      return row;
    },

    async ofAnalysis(analysisId: number): Promise<FollowUpRow | undefined> {
      const [row] = await db.select().from(followUps).where(eq(followUps.analysisId, analysisId));
      return row;
    },

    /** Closes an open reminder; undefined when another photo closed it first. */
    async close(id: number, closing: Closing, runner: Db | Tx = db): Promise<FollowUpRow | undefined> {
      const [row] = await runner
        .update(followUps)
        .set(closing)
        .where(and(eq(followUps.id, id), isOpen))
        .returning();
      return row;
    },

    /** The reminders this analysis was compared with as the follow-up photo, locked until the transaction ends. */
    async comparedWith(nextAnalysisId: number, tx: Tx): Promise<FollowUpRow[]> {
      return tx
        .select()
        .from(followUps)
        .where(and(eq(followUps.nextAnalysisId, nextAnalysisId), isNotNull(followUps.outcome)))
        .for('update');
    },

    /** A comparison made again (the follow-up photo's answer changed); the reminder stays closed. */
    async recompare(id: number, values: Pick<FollowUpRow, 'outcome' | 'escalated'>, tx: Tx): Promise<void> {
      await tx.update(followUps).set(values).where(eq(followUps.id, id));
    },

    /** The reminder's SMS asks for an answer by the USSD menu (a plant clinic visit). */
    async answerByUssd(analysisId: number): Promise<void> {
      await db.update(followUps).set({ byUssd: true }).where(eq(followUps.analysisId, analysisId));
    },

    /**
     * Opens again a reminder withdrawn before it was sent (an expert's answer went back to treat), unless a
     * walk answered it or its field has another open reminder.
     */
    async reopen(analysisId: number, dueAt: Date): Promise<void> {
      await db
        .update(followUps)
        .set({ state: 'waiting', closedAt: null, dueAt })
        .where(
          and(
            eq(followUps.analysisId, analysisId),
            eq(followUps.state, 'cancelled'),
            isNull(followUps.sentAt),
            isNull(followUps.nextAnalysisId),
            // A walk answered it (the walk's reminder, if any, asks now), or the field has another open one.
            isNull(followUps.nextWalkId),
            sql`not exists (select 1 from follow_ups o where o.field_id = ${followUps.fieldId} and o.state in ('waiting', 'sent'))`,
          ),
        );
    },

    /** Drops a reminder not sent yet (its diagnosis is no longer one to treat). */
    async withdraw(analysisId: number, now: Date): Promise<void> {
      await db
        .update(followUps)
        .set({ state: 'cancelled', closedAt: now })
        .where(and(eq(followUps.analysisId, analysisId), eq(followUps.state, 'waiting')));
    },

    /**
     * Claims up to `limit` due reminders for sending: each row turns `sent` in the one statement that
     * picks it, and rows another sweep holds are skipped, so two sweeps never send the same one; in the
     * caller's transaction.
     */
    async claimDue(now: Date, limit: number, tx: Tx) {
      return tx
        .update(followUps)
        .set({ state: 'sent', sentAt: now })
        .where(
          inArray(
            followUps.id,
            sql`(select id from follow_ups where state = 'waiting' and due_at <= ${now.toISOString()}::timestamptz
              order by due_at limit ${limit} for update skip locked)`,
          ),
        )
        .returning();
    },

    /** The names and numbers of these fields (a reminder names its field), in the caller's transaction. */
    async fieldsOf(ids: number[], tx: Tx): Promise<Map<number, { name: string; number: number }>> {
      if (ids.length === 0) return new Map();
      const rows = await tx
        .select({ id: fields.id, name: fields.name, number: fields.number })
        .from(fields)
        .where(inArray(fields.id, ids));
      return new Map(rows.map((r) => [r.id, r]));
    },

    /** Open reminders of fields the farmer retired: nobody is asked about a field they no longer keep. */
    async dropRetired(now: Date): Promise<void> {
      await db
        .update(followUps)
        .set({ state: 'cancelled', closedAt: now })
        .where(
          and(
            isOpen,
            inArray(followUps.fieldId, db.select({ id: fields.id }).from(fields).where(isNotNull(fields.retiredAt))),
          ),
        );
    },

    /** Sent reminders nobody answered by `before`: the field's next photo starts afresh. */
    async lapse(before: Date, now: Date): Promise<number> {
      const rows = await db
        .update(followUps)
        .set({ state: 'lapsed', closedAt: now })
        .where(and(eq(followUps.state, 'sent'), lt(followUps.sentAt, before)))
        .returning({ id: followUps.id });
      return rows.length;
    },

    /**
     * The reminders of these analyses (as the diagnosis to treat, or as its follow-up photo), with the
     * first diagnosis's class and share (the diagnoses' facts, read only).
     */
    async about(ids: number[]) {
      if (ids.length === 0) return [];
      const rows = await db
        .select({
          reminder: followUps,
          firstOutcome: diagnoses.outcome,
          firstClass: diagnoses.rustClass,
          firstUnsure: diagnoses.unsure,
          firstConfidence: diagnoses.confidence,
          firstShare: diagnoses.rustShare,
        })
        .from(followUps)
        .innerJoin(diagnoses, eq(diagnoses.id, followUps.analysisId))
        .where(or(inArray(followUps.analysisId, ids), inArray(followUps.nextAnalysisId, ids)));
      // Joined on the diagnosis: only reminders a diagnosis opened, so each has its analysis id.
      return rows.map((r) => ({
        ...r.reminder,
        analysisId: r.reminder.analysisId as number,
        firstOutcome: r.firstOutcome,
        firstClass: r.firstClass,
        firstUnsure: r.firstUnsure,
        firstConfidence: r.firstConfidence,
        firstShare: r.firstShare,
      }));
    },

    /** The answer of the diagnosis a reminder is about (the diagnoses' facts, read only). */
    async answerOf(analysisId: number, runner: Db | Tx = db): Promise<(ComparedAnswer & { id: number }) | undefined> {
      const [row] = await runner
        .select({
          id: diagnoses.id,
          outcome: diagnoses.outcome,
          rustClass: diagnoses.rustClass,
          unsure: diagnoses.unsure,
          confidence: diagnoses.confidence,
          probabilities: diagnoses.probabilities,
        })
        .from(diagnoses)
        .where(eq(diagnoses.id, analysisId));
      return row ? { ...row, rustClass: row.rustClass as ComparedAnswer['rustClass'] } : undefined;
    },
  };
}
