import { and, count, eq, gte, inArray, isNotNull, isNull, notExists, or, sql } from 'drizzle-orm';
import { type ModelAnswer, type ReviewVerdict, trainingVerdicts } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { expertReviews } from '../../db/schema/index.ts';
import { analysisFacts } from '../analysis/analysis.service.ts';

/** The model's answer in the terms of a verdict (unsure counts on its own). */
const modelAnswerSql = sql<ModelAnswer>`case when ${analysisFacts.outcome} = 'not_leaf' then 'not_leaf' when ${analysisFacts.unsure} then 'unsure' else ${analysisFacts.rustClass} end`;

/** Counts for the review summaries and the field accuracy page. */
export function createFiguresRepo(db: Db) {
  return {
    /**
     * What waits for an expert among the photos of a district's farmers (not try-out data), and since when:
     * those a farmer asked about or Kutu sent (a question or reason, since it was asked), and the unsure
     * answers, which the queue puts first and the farmer is told the experts will look at (since the photo).
     * Two parts that never hold the same photo: the second reads the unsure ones by the queue's index.
     */
    async waitingIn(district: string): Promise<{ waiting: number; oldest: Date | null }> {
      const farmers = sql`(select id from users where district = ${district} and role = 'farmer')`;
      const a = analysisFacts;
      const result = await db.execute(
        sql`select count(*)::int as waiting, min(since) as oldest from (
              select r.asked_at as since from expert_reviews r join ${a} on ${a.id} = r.analysis_id
              where r.reviewed_at is null and r.asked_at is not null and not ${a.demo} and ${a.userId} in ${farmers}
              union all
              select ${a.createdAt} from ${a}
              where ${a.unsure} and ${a.outcome} = 'diagnosis' and not ${a.demo} and ${a.userId} in ${farmers}
                and not exists (select 1 from expert_reviews r where r.analysis_id = ${a.id}
                  and (r.reviewed_at is not null or r.asked_at is not null))
            ) w`,
      );
      const [row] = (result as unknown as { rows: { waiting: number; oldest: Date | string | null }[] }).rows;
      return { waiting: row?.waiting ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
    },

    /** Every analysis no expert decided yet (asked about or not). */
    async waitingCount(): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(analysisFacts)
        .where(
          notExists(
            db
              .select({ one: sql`1` })
              .from(expertReviews)
              .where(and(eq(expertReviews.analysisId, analysisFacts.id), isNotNull(expertReviews.reviewedAt))),
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
        .innerJoin(analysisFacts, eq(analysisFacts.id, expertReviews.analysisId))
        .where(
          and(
            eq(analysisFacts.userId, farmerId),
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
      const confident = and(eq(analysisFacts.outcome, 'diagnosis'), eq(analysisFacts.unsure, false));
      const [row] = await db
        .select({
          sinceCount: sql<number>`count(*) filter (where ${expertReviews.reviewedAt} >= ${since.toISOString()}::timestamptz)::int`,
          confident: sql<number>`count(*) filter (where ${confident} and ${expertReviews.verdict} <> 'cannot_tell')::int`,
          agreed: sql<number>`count(*) filter (where ${confident} and ${expertReviews.verdict} = ${analysisFacts.rustClass})::int`,
        })
        .from(expertReviews)
        .innerJoin(analysisFacts, eq(analysisFacts.id, expertReviews.analysisId))
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
          modelVersion: analysisFacts.modelVersion,
          crop: analysisFacts.crop,
          answer,
          verdict: expertReviews.verdict,
          n: count(),
        })
        .from(expertReviews)
        .innerJoin(analysisFacts, eq(analysisFacts.id, expertReviews.analysisId))
        .where(isNotNull(expertReviews.reviewedAt))
        .groupBy(analysisFacts.modelVersion, analysisFacts.crop, answer, expertReviews.verdict);
      return rows.map((r) => ({ ...r, verdict: r.verdict as ReviewVerdict }));
    },

    /** Every analysis counted by model version and crop, with how many were unsure. */
    async analysisCounts(): Promise<{ modelVersion: string; crop: string | null; total: number; unsure: number }[]> {
      const rows = await db
        .select({
          modelVersion: analysisFacts.modelVersion,
          crop: analysisFacts.crop,
          total: count(),
          unsure: sql<number>`count(*) filter (where ${analysisFacts.unsure})::int`,
        })
        .from(analysisFacts)
        .groupBy(analysisFacts.modelVersion, analysisFacts.crop);
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
      const confident = sql`${analysisFacts.outcome} = 'diagnosis' and not ${analysisFacts.unsure}`;
      const month = since
        ? sql<string>`to_char((${analysisFacts.createdAt} at time zone 'UTC') + interval '3 hours', 'YYYY-MM')`
        : sql<null>`null`;
      const rows = await db
        .select({
          crop: analysisFacts.crop,
          month,
          checked: count(),
          right: sql<number>`count(*) filter (where ${confident} and ${analysisFacts.rustClass} = ${expertReviews.verdict})::int`,
          wrong: sql<number>`count(*) filter (where ${confident} and ${analysisFacts.rustClass} <> ${expertReviews.verdict})::int`,
        })
        .from(expertReviews)
        .innerJoin(analysisFacts, eq(analysisFacts.id, expertReviews.analysisId))
        .where(
          and(
            isNotNull(expertReviews.reviewedAt),
            inArray(expertReviews.verdict, [...trainingVerdicts]),
            since ? gte(analysisFacts.createdAt, since) : undefined,
          ),
        )
        .groupBy(...(since ? [analysisFacts.crop, month] : [analysisFacts.crop]));
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
