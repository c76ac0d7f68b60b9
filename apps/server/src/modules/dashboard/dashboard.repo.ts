import { and, countDistinct, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  analyses,
  availabilitySlots,
  bookings,
  expertReviews,
  moderationAudit,
  posts,
  responses,
  trainingJobs,
  trainingSamples,
} from '../../db/schema/index.ts';

/**
 * Read model over other features' tables: aggregate queries only, never writes. The dashboard is a
 * report across features, so it reads their tables directly (docs/decisions/0003-dashboard-read-model.md).
 */

const n = (condition: SQL) => sql<number>`cast(count(*) filter (where ${condition}) as int)`;
const confident = (rustClass: string) =>
  sql`${analyses.outcome} = 'diagnosis' and not ${analyses.unsure} and ${analyses.rustClass} = ${rustClass}`;

export interface ClassCounts {
  common_rust: number;
  healthy: number;
  other_disease: number;
}

export function createDashboardRepo(db: Db) {
  return {
    /** Analysis counts by outcome; `userId` null means every farmer's analyses. */
    async analysisOutcomes(userId: number | null): Promise<ClassCounts & { total: number }> {
      const [row] = await db
        .select({
          total: sql<number>`cast(count(*) as int)`,
          common_rust: n(confident('common_rust')),
          healthy: n(confident('healthy')),
          other_disease: n(confident('other_disease')),
        })
        .from(analyses)
        .where(userId === null ? undefined : eq(analyses.userId, userId));
      return row ?? { total: 0, common_rust: 0, healthy: 0, other_disease: 0 };
    },

    /**
     * Confident diagnoses per class and calendar month in `timeZone`, for the months starting at
     * `fromMonth` (YYYY-MM) up to the month of `now`.
     */
    async analysesPerMonth(
      userId: number | null,
      opts: { timeZone: string; fromMonth: string; now: Date },
    ): Promise<(ClassCounts & { month: string })[]> {
      const local = sql`(${analyses.createdAt} at time zone ${opts.timeZone})`;
      const localNow = sql`(cast(${opts.now.toISOString()} as timestamptz) at time zone ${opts.timeZone})`;
      const month = sql<string>`to_char(date_trunc('month', ${local}), 'YYYY-MM')`;
      const rows = await db
        .select({
          month,
          common_rust: n(confident('common_rust')),
          healthy: n(confident('healthy')),
          other_disease: n(confident('other_disease')),
        })
        .from(analyses)
        .where(
          and(
            userId === null ? undefined : eq(analyses.userId, userId),
            sql`${local} >= cast(${`${opts.fromMonth}-01`} as timestamp)`,
            sql`${local} < date_trunc('month', ${localNow}) + interval '1 month'`,
          ),
        )
        .groupBy(sql`1`);
      return rows;
    },

    /** Live (not removed) training samples per label: uploaded by an expert, or made from a farmer's analyses. */
    async trainingSamplesByLabel(by: { uploaderId: number } | { analysisOwnerId: number }): Promise<ClassCounts> {
      const live = isNull(trainingSamples.removedAt);
      const select = {
        common_rust: n(sql`${trainingSamples.label} = 'common_rust'`),
        healthy: n(sql`${trainingSamples.label} = 'healthy'`),
        other_disease: n(sql`${trainingSamples.label} = 'other_disease'`),
      };
      const [row] =
        'uploaderId' in by
          ? await db
              .select(select)
              .from(trainingSamples)
              .where(and(live, eq(trainingSamples.uploaderId, by.uploaderId)))
          : await db
              .select(select)
              .from(trainingSamples)
              .innerJoin(analyses, eq(analyses.id, trainingSamples.sourceAnalysisId))
              .where(and(live, eq(analyses.userId, by.analysisOwnerId)));
      return row ?? { common_rust: 0, healthy: 0, other_disease: 0 };
    },

    /** Training sessions started by this expert (any status), or, with null, the succeeded ones of everyone. */
    async trainingSessions(startedBy: number | null): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`cast(count(*) as int)` })
        .from(trainingJobs)
        .where(startedBy === null ? eq(trainingJobs.status, 'succeeded') : eq(trainingJobs.startedBy, startedBy));
      return row?.n ?? 0;
    },

    /** The farmer's own posts about a disease (disease type other than none). */
    async diseasePostsByAuthor(authorId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`cast(count(*) as int)` })
        .from(posts)
        .where(and(eq(posts.authorId, authorId), ne(posts.diseaseType, 'none')));
      return row?.n ?? 0;
    },

    /** Distinct posts about a disease that this expert moderated (any moderation action). */
    async diseasePostsModeratedBy(expertId: number): Promise<number> {
      const [row] = await db
        .select({ n: countDistinct(posts.id) })
        .from(posts)
        .innerJoin(moderationAudit, and(eq(moderationAudit.targetType, 'post'), eq(moderationAudit.targetId, posts.id)))
        .where(and(eq(moderationAudit.actorId, expertId), ne(posts.diseaseType, 'none')));
      return row?.n ?? 0;
    },

    /** A farmer's own activity: questions to experts, posts and bookings, and how many were answered. */
    async farmerActivity(farmerId: number) {
      const n = (q: SQL) => sql<number>`cast((${q}) as int)`;
      const [row] = await db
        .select({
          questionsAsked: n(
            sql`select count(*) from ${expertReviews} r join ${analyses} a on a.id = r.analysis_id where a.user_id = ${farmerId} and r.asked_at is not null`,
          ),
          questionsAnswered: n(
            sql`select count(*) from ${expertReviews} r join ${analyses} a on a.id = r.analysis_id where a.user_id = ${farmerId} and r.asked_at is not null and r.reviewed_at is not null`,
          ),
          posts: n(sql`select count(*) from ${posts} p where p.author_id = ${farmerId}`),
          postsAnswered: n(
            sql`select count(*) from ${posts} p where p.author_id = ${farmerId} and exists (select 1 from ${responses} r where r.post_id = p.id and r.kind = 'expert')`,
          ),
          bookingsPending: n(
            sql`select count(*) from ${bookings} b where b.farmer_id = ${farmerId} and b.status = 'pending'`,
          ),
        })
        .from(sql`(select 1) as one`);
      return row;
    },

    async approvedBookingsOfFarmer(farmerId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`cast(count(*) as int)` })
        .from(bookings)
        .where(and(eq(bookings.farmerId, farmerId), eq(bookings.status, 'approved')));
      return row?.n ?? 0;
    },

    async approvedBookingsOnSlotsOf(expertId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`cast(count(*) as int)` })
        .from(bookings)
        .innerJoin(availabilitySlots, eq(availabilitySlots.id, bookings.slotId))
        .where(and(eq(availabilitySlots.expertId, expertId), eq(bookings.status, 'approved')));
      return row?.n ?? 0;
    },
  };
}
export type DashboardRepo = ReturnType<typeof createDashboardRepo>;
