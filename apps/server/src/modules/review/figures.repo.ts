import { and, count, eq, gte, inArray, isNotNull, isNull, notExists, or, sql } from 'drizzle-orm';
import { type ModelAnswer, type ReviewVerdict, trainingVerdicts } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { analyses, expertReviews } from '../../db/schema/index.ts';

/** The model's answer in the terms of a verdict (unsure counts on its own). */
const modelAnswerSql = sql<ModelAnswer>`case when ${analyses.outcome} = 'not_leaf' then 'not_leaf' when ${analyses.unsure} then 'unsure' else ${analyses.rustClass} end`;

/** Counts for the review summaries and the field accuracy page. */
export function createFiguresRepo(db: Db) {
  return {
    /** Every analysis no expert decided yet (asked about or not). */
    async waitingCount(): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(analyses)
        .where(
          notExists(
            db
              .select({ one: sql`1` })
              .from(expertReviews)
              .where(and(eq(expertReviews.analysisId, analyses.id), isNotNull(expertReviews.reviewedAt))),
          ),
        );
      return row?.n ?? 0;
    },

    async farmerQuestions(farmerId: number): Promise<{ asked: number; answered: number }> {
      const [row] = await db
        .select({
          asked: count(),
          answered: sql<number>`count(${expertReviews.reviewedAt})::int`,
        })
        .from(expertReviews)
        .innerJoin(analyses, eq(analyses.id, expertReviews.analysisId))
        .where(
          and(
            eq(analyses.userId, farmerId),
            isNotNull(expertReviews.askedAt),
            // Asked by the farmer: a worse follow-up Kutu queued by itself has a reason and no question.
            or(isNotNull(expertReviews.question), isNull(expertReviews.reason)),
          ),
        );
      return { asked: row?.asked ?? 0, answered: Number(row?.answered ?? 0) };
    },

    /** An expert's decisions since `since`, and how their verdicts on confident answers compare. */
    async expertFigures(
      expertId: number,
      since: Date,
    ): Promise<{ sinceCount: number; confident: number; agreed: number }> {
      const confident = and(eq(analyses.outcome, 'diagnosis'), eq(analyses.unsure, false));
      const [row] = await db
        .select({
          sinceCount: sql<number>`count(*) filter (where ${expertReviews.reviewedAt} >= ${since.toISOString()}::timestamptz)::int`,
          confident: sql<number>`count(*) filter (where ${confident} and ${expertReviews.verdict} <> 'cannot_tell')::int`,
          agreed: sql<number>`count(*) filter (where ${confident} and ${expertReviews.verdict} = ${analyses.rustClass})::int`,
        })
        .from(expertReviews)
        .innerJoin(analyses, eq(analyses.id, expertReviews.analysisId))
        .where(and(eq(expertReviews.reviewerId, expertId), isNotNull(expertReviews.reviewedAt)));
      return {
        sinceCount: Number(row?.sinceCount ?? 0),
        confident: Number(row?.confident ?? 0),
        agreed: Number(row?.agreed ?? 0),
      };
    },

    /** Decided reviews counted by model version, crop, model answer and verdict. */
    async verdictCounts(): Promise<
      { modelVersion: string; crop: string | null; answer: ModelAnswer; verdict: ReviewVerdict; n: number }[]
    > {
      const answer = modelAnswerSql;
      const rows = await db
        .select({
          modelVersion: analyses.modelVersion,
          crop: analyses.crop,
          answer,
          verdict: expertReviews.verdict,
          n: count(),
        })
        .from(expertReviews)
        .innerJoin(analyses, eq(analyses.id, expertReviews.analysisId))
        .where(isNotNull(expertReviews.reviewedAt))
        .groupBy(analyses.modelVersion, analyses.crop, answer, expertReviews.verdict);
      return rows.map((r) => ({ ...r, verdict: r.verdict as ReviewVerdict }));
    },

    /** Every analysis counted by model version and crop, with how many were unsure. */
    async analysisCounts(): Promise<{ modelVersion: string; crop: string | null; total: number; unsure: number }[]> {
      const rows = await db
        .select({
          modelVersion: analyses.modelVersion,
          crop: analyses.crop,
          total: count(),
          unsure: sql<number>`count(*) filter (where ${analyses.unsure})::int`,
        })
        .from(analyses)
        .groupBy(analyses.modelVersion, analyses.crop);
      return rows.map((r) => ({ ...r, unsure: Number(r.unsure) }));
    },

    /**
     * Decided reviews whose verdict is a crop class (the expert could tell), by the crop the farmer named and,
     * with `since`, the month (East Africa Time) the photo was analysed: how many Kutu answered right,
     * confidently wrong, or unsure (an unsure answer or "not a leaf").
     */
    async fieldAnswerCounts(
      since?: Date,
    ): Promise<
      { crop: string | null; month: string | null; checked: number; right: number; wrong: number; unsure: number }[]
    > {
      const confident = sql`${analyses.outcome} = 'diagnosis' and not ${analyses.unsure}`;
      const month = since
        ? sql<string>`to_char((${analyses.createdAt} at time zone 'UTC') + interval '3 hours', 'YYYY-MM')`
        : sql<null>`null`;
      const rows = await db
        .select({
          crop: analyses.crop,
          month,
          checked: count(),
          right: sql<number>`count(*) filter (where ${confident} and ${analyses.rustClass} = ${expertReviews.verdict})::int`,
          wrong: sql<number>`count(*) filter (where ${confident} and ${analyses.rustClass} <> ${expertReviews.verdict})::int`,
        })
        .from(expertReviews)
        .innerJoin(analyses, eq(analyses.id, expertReviews.analysisId))
        .where(
          and(
            isNotNull(expertReviews.reviewedAt),
            inArray(expertReviews.verdict, [...trainingVerdicts]),
            since ? gte(analyses.createdAt, since) : undefined,
          ),
        )
        .groupBy(...(since ? [analyses.crop, month] : [analyses.crop]));
      return rows.map((r) => ({
        crop: r.crop,
        month: r.month ?? null,
        checked: r.checked,
        right: Number(r.right),
        wrong: Number(r.wrong),
        unsure: r.checked - Number(r.right) - Number(r.wrong),
      }));
    },
  };
}
