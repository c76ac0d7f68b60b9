import { type AnyColumn, isNull, type SQL, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { fields, scoutingWalks } from '../../db/schema/index.ts';

/**
 * A field's name and a walk's counts as another module's query joins them (a clinic visit's records, an analysis's field),
 * read only: subqueries PostgreSQL folds into plain joins, so this module alone decides the tables' shape.
 * E.g. `.leftJoin(fieldFacts, eq(fieldFacts.id, clinicVisits.fieldId))`.
 */
export const fieldFacts = new QueryBuilder()
  .select({ id: fields.id, name: fields.name })
  .from(fields)
  .as('field_facts');

export const walkFacts = new QueryBuilder()
  .select({
    id: scoutingWalks.id,
    fieldId: scoutingWalks.fieldId,
    walkedAt: scoutingWalks.walkedAt,
    plantsLooked: scoutingWalks.plantsLooked,
    plantsRust: scoutingWalks.plantsRust,
  })
  .from(scoutingWalks)
  .as('walk_facts');

/**
 * A field as a reminder names it and the follow-ups find the retired ones, read only, as `fieldFacts`. The
 * follow-up module is one this module uses (walks answer reminders), so services.ts hands it in.
 */
export const fieldNameFacts = new QueryBuilder()
  .select({ id: fields.id, name: fields.name, number: fields.number, retiredAt: fields.retiredAt })
  .from(fields)
  .as('field_name_facts');

/** A farmer's live fields (not retired) with their crop and district, read only, as `fieldFacts`. */
export const liveFieldFacts = new QueryBuilder()
  .select({ id: fields.id, userId: fields.userId, name: fields.name, crop: fields.crop, district: fields.district })
  .from(fields)
  .where(isNull(fields.retiredAt))
  .as('live_field_facts');

/**
 * The SQL condition "`userId` has a live field of `crop` in `district`" (made at or after `since`, when given),
 * for another module's query that tells the district's farmers (a rust advisory).
 */
export const hasLiveFieldSql = (userId: AnyColumn | SQL, district: string, crop: string, since?: Date): SQL =>
  sql`exists (select 1 from ${fields} where ${fields.userId} = ${userId} and ${fields.district} = ${district}
        and ${fields.crop} = ${crop} and ${fields.retiredAt} is null
        ${since ? sql`and ${fields.createdAt} >= ${since.toISOString()}::timestamptz` : sql``})`;
