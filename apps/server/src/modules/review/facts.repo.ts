import { QueryBuilder } from 'drizzle-orm/pg-core';
import { expertReviews } from '../../db/schema/index.ts';

/**
 * An analysis's review as another module's query joins it (the basic phone's last diagnosis, a
 * farmer's questions on the dashboard), read only: a subquery PostgreSQL folds into a plain join, so
 * this module alone decides the table's shape. E.g. `.leftJoin(reviewFacts, eq(reviewFacts.analysisId, analysisFacts.id))`.
 */
export const reviewFacts = new QueryBuilder()
  .select({
    analysisId: expertReviews.analysisId,
    verdict: expertReviews.verdict,
    question: expertReviews.question,
    reason: expertReviews.reason,
    askedAt: expertReviews.askedAt,
    reviewedAt: expertReviews.reviewedAt,
  })
  .from(expertReviews)
  .as('review_facts');
