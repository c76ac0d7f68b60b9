import { type SQL, sql } from 'drizzle-orm';
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

/**
 * An expert's decision on an analysis as the analysis module shows it (a result's expert answer, the
 * severity figures), read only, as `reviewFacts`. The analysis module is one this module uses, so
 * services.ts hands it in.
 */
export const decisionFacts = new QueryBuilder()
  .select({
    analysisId: expertReviews.analysisId,
    verdict: expertReviews.verdict,
    note: expertReviews.note,
    severity: expertReviews.severity,
    reviewedAt: expertReviews.reviewedAt,
    revisedAt: expertReviews.revisedAt,
  })
  .from(expertReviews)
  .as('decision_facts');

/**
 * An analysis's verdict as the outbreak watch's set-based SQL counts it, read only: a parenthesised
 * subquery for `left join ${verdictCaseSql} r on r.analysis_id = a.id`. The outbreak module is one this
 * module uses, so services.ts hands it in.
 */
export const verdictCaseSql: SQL = sql`(select ${expertReviews.analysisId}, ${expertReviews.verdict} from ${expertReviews})`;
