import { and, count, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { expertReviews } from '../../db/schema/index.ts';
import { analysisFacts } from '../analysis/analysis.service.ts';

interface Window {
  limit: number;
  offset: number;
}

/** The lists of one person's reviews: a farmer's questions and verdicts, an expert's own decisions. */
export function createMyReviewsRepo(db: Db) {
  return {
    /** The farmer's analyses that they asked about or that an expert decided, newest first. */
    async listForFarmer(farmerId: number, window: Window): Promise<{ ids: number[]; total: number }> {
      const where = and(
        eq(analysisFacts.userId, farmerId),
        or(isNotNull(expertReviews.askedAt), isNotNull(expertReviews.reviewedAt)),
      );
      const [rows, [total]] = await Promise.all([
        db
          .select({ id: analysisFacts.id })
          .from(expertReviews)
          .innerJoin(analysisFacts, eq(analysisFacts.id, expertReviews.analysisId))
          .where(where)
          .orderBy(desc(sql`coalesce(${expertReviews.reviewedAt}, ${expertReviews.askedAt})`), desc(analysisFacts.id))
          .limit(window.limit)
          .offset(window.offset),
        db
          .select({ n: count() })
          .from(expertReviews)
          .innerJoin(analysisFacts, eq(analysisFacts.id, expertReviews.analysisId))
          .where(where),
      ]);
      return { ids: rows.map((r) => r.id), total: total?.n ?? 0 };
    },

    /** Analyses the expert decided, latest decision (or revision) first. */
    async listDecidedBy(expertId: number, window: Window): Promise<{ ids: number[]; total: number }> {
      const where = and(eq(expertReviews.reviewerId, expertId), isNotNull(expertReviews.reviewedAt));
      const [rows, [total]] = await Promise.all([
        db
          .select({ id: expertReviews.analysisId })
          .from(expertReviews)
          .where(where)
          .orderBy(
            desc(sql`coalesce(${expertReviews.revisedAt}, ${expertReviews.reviewedAt})`),
            desc(expertReviews.analysisId),
          )
          .limit(window.limit)
          .offset(window.offset),
        db.select({ n: count() }).from(expertReviews).where(where),
      ]);
      return { ids: rows.map((r) => r.id), total: total?.n ?? 0 };
    },
  };
}
