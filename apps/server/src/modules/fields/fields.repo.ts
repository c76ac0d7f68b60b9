import { type AnyColumn, and, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { fields, scoutingWalks, users } from '../../db/schema/index.ts';
import { farmerFacts } from '../auth/account.service.ts';
import { followUpFacts } from '../followup/followup.service.ts';

export type FieldRow = typeof fields.$inferSelect;
export type NewField = Omit<typeof fields.$inferInsert, 'id' | 'number'>;
export type FieldChange = Partial<
  Pick<FieldRow, 'name' | 'crop' | 'sizeAcres' | 'district' | 'plantedOn' | 'lat' | 'lng'>
>;

/** The unique index a failed write ran into (PostgreSQL 23505), through Drizzle's error wrapper; null for another error. */
function uniqueViolation(err: unknown): string | null {
  for (let e = err as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined; e; ) {
    if (e.code === '23505') return e.constraint ?? e.message ?? '';
    e = e.cause as typeof e;
  }
  return null;
}
const NAME_INDEX = 'fields_user_name_idx';
/** The advisory lock under which one farmer's fields are numbered. */
const FIELD_NUMBER_LOCK = 7_011;

const live = (userId: number) => and(eq(fields.userId, userId), isNull(fields.retiredAt));

/** A farmer's fields: SQL only. A name taken by another live field comes back as `'name_taken'`. */
/**
 * A field's photos, as SQL inside this module's queries: the analysis module's (which uses this one, so
 * services.ts hands them in), read only.
 */
export interface FieldPhotos {
  /** "Field `fieldId` has a photo." */
  any(fieldId: AnyColumn | SQL): SQL;
  /** The number of photos of field `fieldId`. */
  count(fieldId: AnyColumn | SQL): SQL<number>;
  /** "Analysis `id` is `userId`'s photo of field `fieldId`." */
  of(id: AnyColumn | SQL, userId: number, fieldId: number): SQL;
}

export function createFieldsRepo(db: Db, photos: FieldPhotos) {
  return {
    /**
     * A new field with the farmer's next number (never reused: numbers stay what a basic phone learned).
     * The farmer's fields are numbered one at a time (a transaction lock per farmer), so fields made at
     * once each get the next number; retrying on a clash once gave up after five tries under 25 at once.
     */
    async insert(values: NewField): Promise<FieldRow | 'name_taken'> {
      try {
        return await db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(${FIELD_NUMBER_LOCK}, ${values.userId})`);
          const next = sql`(select coalesce(max(${fields.number}), 0) + 1 from ${fields} where ${fields.userId} = ${values.userId})`;
          const [row] = await tx
            .insert(fields)
            .values({ ...values, number: next })
            .returning();
          return row!;
        });
      } catch (err) {
        if (uniqueViolation(err)?.includes(NAME_INDEX)) return 'name_taken';
        throw err;
      }
    },

    /** The farmer's language and district: a field Kutu makes is named in the one and lies in the other. */
    async account(userId: number) {
      const [row] = await db
        .select({
          language: users.language,
          district: users.district,
          districtBefore: users.districtBefore,
          districtChangedAt: users.districtChangedAt,
          cropTypes: farmerFacts.cropTypes,
        })
        .from(users)
        .leftJoin(farmerFacts, eq(farmerFacts.userId, users.id))
        .where(eq(users.id, userId));
      return row;
    },

    async find(id: number): Promise<FieldRow | undefined> {
      const [row] = await db.select().from(fields).where(eq(fields.id, id));
      return row;
    },

    /** A page of the farmer's live fields, newest first. */
    async page(userId: number, { limit, offset }: { limit: number; offset: number }) {
      const [rows, [{ n }]] = await Promise.all([
        db
          .select()
          .from(fields)
          .where(live(userId))
          .orderBy(desc(fields.createdAt), desc(fields.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(fields).where(live(userId)),
      ]);
      return { rows, total: n };
    },

    /** The number the farmer's next field gets: the highest given (retired fields' too) plus one. */
    async nextNumber(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`coalesce(max(${fields.number}), 0) + 1` })
        .from(fields)
        .where(eq(fields.userId, userId));
      return Number(row?.n ?? 1);
    },

    /** The farmer's live fields by number (a basic phone's list), at most `limit`. */
    async liveByNumber(userId: number, limit: number): Promise<FieldRow[]> {
      return db.select().from(fields).where(live(userId)).orderBy(fields.number).limit(limit);
    },

    /** The farmer's live field of that number. */
    async liveNumbered(userId: number, number: number): Promise<FieldRow | undefined> {
      const [row] = await db
        .select()
        .from(fields)
        .where(and(live(userId), eq(fields.number, number)));
      return row;
    },

    /** The farmer's latest live field of a crop: where a photo without a field goes. */
    async latestLive(userId: number, crop: FieldRow['crop']): Promise<FieldRow | undefined> {
      const [row] = await db
        .select()
        .from(fields)
        .where(and(live(userId), eq(fields.crop, crop)))
        .orderBy(desc(fields.createdAt), desc(fields.id))
        .limit(1);
      return row;
    },

    /** Whether a live field of the farmer has this name, whatever its case. */
    async nameTaken(userId: number, name: string): Promise<boolean> {
      const [row] = await db
        .select({ id: fields.id })
        .from(fields)
        .where(and(live(userId), sql`lower(${fields.name}) = lower(${name})`));
      return Boolean(row);
    },

    async update(id: number, change: FieldChange, now: Date): Promise<FieldRow | 'name_taken' | undefined> {
      try {
        const [row] = await db
          .update(fields)
          .set({ ...change, updatedAt: now })
          .where(eq(fields.id, id))
          .returning();
        return row;
      } catch (err) {
        if (uniqueViolation(err)?.includes(NAME_INDEX)) return 'name_taken';
        throw err;
      }
    },

    async retire(id: number, now: Date): Promise<void> {
      await db
        .update(fields)
        .set({ retiredAt: now, updatedAt: now })
        .where(and(eq(fields.id, id), isNull(fields.retiredAt)));
    },

    /** Whether the field has photos or walks (its crop is then what they were of). */
    async hasHistory(id: number): Promise<boolean> {
      const [photo] = await db
        .select({ id: fields.id })
        .from(fields)
        .where(and(eq(fields.id, id), photos.any(fields.id)));
      if (photo) return true;
      const [walk] = await db
        .select({ id: scoutingWalks.id })
        .from(scoutingWalks)
        .where(eq(scoutingWalks.fieldId, id))
        .limit(1);
      return Boolean(walk);
    },

    /** Per field: its photos, and when its waiting reminder is due (the follow-ups' and photos' facts, read only). */
    async about(ids: number[]): Promise<Map<number, { analyses: number; remindAt: Date | null }>> {
      const out = new Map(ids.map((id) => [id, { analyses: 0, remindAt: null as Date | null }]));
      if (ids.length === 0) return out;
      const [counted, reminders] = await Promise.all([
        db
          .select({ fieldId: fields.id, n: photos.count(fields.id) })
          .from(fields)
          .where(inArray(fields.id, ids)),
        db
          .select({ fieldId: followUpFacts.fieldId, dueAt: followUpFacts.dueAt })
          .from(followUpFacts)
          .where(and(inArray(followUpFacts.fieldId, ids), eq(followUpFacts.state, 'waiting'))),
      ]);
      for (const p of counted) out.get(p.fieldId)!.analyses = p.n;
      for (const r of reminders) out.get(r.fieldId)!.remindAt = r.dueAt;
      return out;
    },
  };
}
