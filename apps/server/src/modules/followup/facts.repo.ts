import { QueryBuilder } from 'drizzle-orm/pg-core';
import { followUps } from '../../db/schema/index.ts';

/**
 * A field's reminders as another module's query reads them (when a field's waiting reminder is due, an officer's week),
 * read only: a subquery PostgreSQL folds into the table's own plan, so this module alone decides the
 * table's shape. E.g. `.from(followUpFacts).where(eq(followUpFacts.state, 'waiting'))`.
 */
export const followUpFacts = new QueryBuilder()
  .select({
    fieldId: followUps.fieldId,
    userId: followUps.userId,
    analysisId: followUps.analysisId,
    dueAt: followUps.dueAt,
    state: followUps.state,
    outcome: followUps.outcome,
    nextWalkId: followUps.nextWalkId,
    closedAt: followUps.closedAt,
  })
  .from(followUps)
  .as('follow_up_facts');
