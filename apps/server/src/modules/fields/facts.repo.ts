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
