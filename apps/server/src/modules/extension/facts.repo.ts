import { QueryBuilder } from 'drizzle-orm/pg-core';
import { officerActions } from '../../db/schema/index.ts';

/**
 * An officer's action as another module's query joins it (the note of a call that closed a call-back
 * request), read only: a subquery PostgreSQL folds into a plain join, so this module alone decides the
 * table's shape. E.g. `.leftJoin(actionFacts, eq(actionFacts.id, callbackRequests.doneActionId))`.
 */
export const actionFacts = new QueryBuilder()
  .select({ id: officerActions.id, note: officerActions.note })
  .from(officerActions)
  .as('action_facts');
