import { QueryBuilder } from 'drizzle-orm/pg-core';
import { expertReviews } from '../../db/schema/index.ts';

/**
 * An analysis's expert verdict as another module's query joins it (the basic phone's last diagnosis),
 * read only: a subquery PostgreSQL folds into a plain join, so this module alone decides the table's
 * shape. E.g. `.leftJoin(verdictFacts, eq(verdictFacts.analysisId, analysisFacts.id))`.
 */
export const verdictFacts = new QueryBuilder()
  .select({ analysisId: expertReviews.analysisId, verdict: expertReviews.verdict })
  .from(expertReviews)
  .as('verdict_facts');
