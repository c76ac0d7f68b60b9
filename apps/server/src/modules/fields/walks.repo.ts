import { and, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { fields, scoutingWalks } from '../../db/schema/index.ts';
import type { FieldPhotos } from './fields.repo.ts';

export type WalkRow = typeof scoutingWalks.$inferSelect;
export type NewWalk = Omit<typeof scoutingWalks.$inferInsert, 'id'>;

/** A walk counts in the figures unless it is held and not yet confirmed (docs/decisions/0105). */
const counts = or(isNull(scoutingWalks.heldFor), isNotNull(scoutingWalks.confirmedAt));
const countsSql = sql`(w.held_for is null or w.confirmed_at is not null)`;

/** Scouting walks: SQL only. */
export function createWalksRepo(db: Db, photos: FieldPhotos) {
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

    /** Of these analysis ids, those that are the owner's photos of the field (the photos' facts, read only). */
    async photosOfField(userId: number, fieldId: number, ids: number[], tx: Tx): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const given = sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      );
      const { rows } = (await tx.execute(
        sql`select x.id from unnest(array[${given}]::int[]) as x(id) where ${photos.of(sql`x.id`, userId, fieldId)}`,
      )) as unknown as { rows: { id: number }[] };
      return new Set(rows.map((r) => Number(r.id)));
    },

    /**
     * Fields walked and their median incidence per district, crop and ISO week (Monday, UTC) from `from` on:
     * each field counted once a week, with its latest walk of that week (a field walked twice weighs as one),
     * and the farmers those fields belong to (the small-count rule counts them); held walks left out.
     */
    async weeklyIncidence(from: string, crop?: string) {
      const rows = await db.execute(sql`
        with latest as (
          select distinct on (w.field_id, date_trunc('week', w.walked_at at time zone 'UTC'))
            f.district, f.crop, (date_trunc('week', w.walked_at at time zone 'UTC'))::date::text as week_start,
            w.plants_rust::float8 / w.plants_looked as share, w.walked_at, w.user_id, w.plants_rust
          from scouting_walks w join fields f on f.id = w.field_id
          where f.district is not null and w.plants_looked > 0 and ${countsSql}
            and w.walked_at >= ${from}::date ${crop ? sql`and f.crop = ${crop}` : sql``}
          order by w.field_id, date_trunc('week', w.walked_at at time zone 'UTC'), w.walked_at desc, w.id desc
        )
        select district, crop, week_start as "weekStart", count(*)::int as fields,
          count(distinct user_id)::int as farmers, percentile_cont(0.5) within group (order by share) as median, max(walked_at) as "lastWalk",
          count(distinct user_id) filter (where plants_rust > 0)::int as "rustFarmers"
        from latest group by district, crop, week_start order by week_start, district, crop`);
      return (
        rows as unknown as {
          rows: {
            district: string;
            crop: string;
            weekStart: string;
            fields: number;
            farmers: number;
            median: number;
            lastWalk: Date | string;
            /** Farmers whose latest walk of a field that week found rust (the forecast's score, decision 0129). */
            rustFarmers: number;
          }[];
        }
      ).rows;
    },

    /**
     * Per district and crop since `since`, from the walks that count: the farmers whose walks found rust, of
     * them those whose rust walk an expert or officer confirmed (a held walk confirmed), and over each field's
     * latest walk the farmers who walked and the median share of plants with rust.
     */
    async rustSince(since: Date) {
      const rows = await db.execute(sql`
        with counted as (
          select f.district, f.crop, w.field_id, w.user_id, w.plants_rust, w.plants_looked, w.walked_at, w.id,
            w.confirmed_at
          from scouting_walks w join fields f on f.id = w.field_id
          where f.district is not null and w.plants_looked > 0 and ${countsSql} and w.walked_at >= ${since.toISOString()}
        ), latest as (
          select distinct on (field_id) district, crop, user_id, plants_rust::float8 / plants_looked as share
          from counted order by field_id, walked_at desc, id desc
        )
        select r.district, r.crop, r.rust_farmers as "rustFarmers", r.confirmed_rust_farmers as "confirmedRustFarmers",
          l.farmers, l.median
        from (select district, crop, count(distinct user_id) filter (where plants_rust > 0)::int as rust_farmers,
                count(distinct user_id) filter (where plants_rust > 0 and confirmed_at is not null)::int
                  as confirmed_rust_farmers
              from counted group by district, crop) r
        join (select district, crop, count(distinct user_id)::int as farmers,
                percentile_cont(0.5) within group (order by share) as median
              from latest group by district, crop) l using (district, crop)`);
      return (
        rows as unknown as {
          rows: {
            district: string;
            crop: string;
            rustFarmers: number;
            confirmedRustFarmers: number;
            farmers: number;
            median: number;
          }[];
        }
      ).rows.map((r) => ({ ...r, median: Number(r.median) }));
    },

    /**
     * Walks of the district's fields made in [from, to): with `worse`, only those worse than the walk before
     * that went to no expert (no leaf photo at a stop): what the officers' week lists; without, only the walks
     * that count (not held, or confirmed).
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
            worse ? and(eq(scoutingWalks.comparison, 'worse'), eq(scoutingWalks.sentToExpert, false)) : counts,
          ),
        )
        .orderBy(desc(scoutingWalks.walkedAt), desc(scoutingWalks.id))
        .limit(1000);
    },
    /**
     * The district's other walks of the crop made in [from, to] that count: each field's latest (plants looked,
     * plants with rust, its farmer), leaving out `exceptUser`'s own.
     */
    async baseline(tx: Tx, q: { district: string; crop: string; from: Date; to: Date; exceptUser: number }) {
      const rows = await tx.execute(sql`
        select distinct on (w.field_id) w.user_id as "userId", w.plants_looked as looked, w.plants_rust as rust
        from scouting_walks w join fields f on f.id = w.field_id
        where f.district = ${q.district} and f.crop = ${q.crop} and w.user_id <> ${q.exceptUser}
          and w.walked_at >= ${q.from.toISOString()} and w.walked_at <= ${q.to.toISOString()} and ${countsSql}
        order by w.field_id, w.walked_at desc, w.id desc`);
      return (rows as unknown as { rows: { userId: number; looked: number; rust: number }[] }).rows;
    },

    /** Whether a walk of the field waits as far from its farmer and no one has confirmed it yet. */
    async heldFar(fieldId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: scoutingWalks.id })
        .from(scoutingWalks)
        .where(
          and(
            eq(scoutingWalks.fieldId, fieldId),
            eq(scoutingWalks.heldFor, 'far_field'),
            isNull(scoutingWalks.confirmedAt),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** The district's held walks not yet confirmed, oldest first, at most 200. */
    async held(district: string) {
      return db
        .select({ walk: scoutingWalks, fieldName: fields.name, crop: fields.crop, district: fields.district })
        .from(scoutingWalks)
        .innerJoin(fields, eq(fields.id, scoutingWalks.fieldId))
        .where(and(eq(fields.district, district), isNotNull(scoutingWalks.heldFor), isNull(scoutingWalks.confirmedAt)))
        .orderBy(scoutingWalks.walkedAt, scoutingWalks.id)
        .limit(200);
    },

    /** The walk and its field's district (for who may confirm it). */
    async withDistrict(id: number) {
      const [row] = await db
        .select({ walk: scoutingWalks, district: fields.district })
        .from(scoutingWalks)
        .innerJoin(fields, eq(fields.id, scoutingWalks.fieldId))
        .where(eq(scoutingWalks.id, id));
      return row;
    },

    /** Confirms a held walk: from now on it counts. */
    async confirm(id: number, by: number, at: Date): Promise<void> {
      await db
        .update(scoutingWalks)
        .set({ confirmedBy: by, confirmedAt: at })
        .where(and(eq(scoutingWalks.id, id), isNull(scoutingWalks.confirmedAt)));
    },
  };
}
