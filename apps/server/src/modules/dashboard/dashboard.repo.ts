import { and, countDistinct, eq, isNull, ne, type Placeholder, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { analysisFacts as analyses } from '../analysis/analysis.service.ts';
import { moderationFacts, postFacts as posts, responseFacts } from '../community/community.service.ts';
import { bookingFacts as bookings } from '../consultations/consultations.service.ts';
import { reviewFacts } from '../review/review.service.ts';
import { jobFacts as trainingJobs, sampleFacts as trainingSamples } from '../training/samples.service.ts';

/**
 * Read model over other features' data: aggregate queries only, never writes. The dashboard is a
 * report across features, counted on read in one statement (docs/decisions/0003-dashboard-read-model.md):
 * it reads each owner's read-only facts (analysisFacts, postFacts, …), which PostgreSQL folds into the
 * tables' own plans, named here as the tables they stand for.
 */

const n = (condition: SQL) => sql<number>`cast(count(*) filter (where ${condition}) as int)`;
const total = () => sql<number>`cast(count(*) as int)`;

/**
 * The fields of a part, each named: the parts are read back as JSON objects, by column name (drizzle
 * leaves expressions unnamed and reads them by position).
 */
function named<T extends Record<string, SQL>>(fields: T): { [K in keyof T]: SQL.Aliased<SQLType<T[K]>> } {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.as(name)])) as {
    [K in keyof T]: SQL.Aliased<SQLType<T[K]>>;
  };
}
type SQLType<S> = S extends SQL<infer V> ? V : never;
const confident = (rustClass: string) =>
  sql`${analyses.outcome} = 'diagnosis' and not ${analyses.unsure} and ${analyses.rustClass} = ${rustClass}`;
/**
 * Rust as the farmer was told: a confident rust answer, or a field where rust was seen on some leaves
 * (the contract's `rustSeenOnSome`, decision 0061: the rust advice), which the pie once put under "not a
 * leaf / unsure" with rust at 0.
 */
const saysRust = sql`${analyses.outcome} = 'diagnosis' and ${analyses.rustClass} = 'common_rust'
  and (not ${analyses.unsure} or coalesce(${analyses.rustLeaves}, 0) > 0)`;

/** A value given when the prepared statement runs. */
type Param = Placeholder;

/** The parts one dashboard reads, each a query: `summary` runs them together. */
function dashboardParts(db: Db) {
  return {
    /** Analysis counts by outcome; `userId` null means every farmer's analyses. */
    analysisOutcomes(userId: Param | null) {
      return db
        .select(
          named({
            total: total(),
            common_rust: n(saysRust),
            healthy: n(confident('healthy')),
            other_disease: n(confident('other_disease')),
          }),
        )
        .from(analyses)
        .where(userId === null ? undefined : eq(analyses.userId, userId));
    },

    /**
     * Confident diagnoses per class and calendar month in `timeZone`, for the months starting at
     * `fromDay` (YYYY-MM-01) up to the month of `now`.
     */
    analysesPerMonth(userId: Param | null, opts: { timeZone: Param; fromDay: Param; now: Param }) {
      const local = sql`(${analyses.createdAt} at time zone ${opts.timeZone})`;
      const localNow = sql`(cast(${opts.now} as timestamptz) at time zone ${opts.timeZone})`;
      return db
        .select(
          named({
            month: sql<string>`to_char(date_trunc('month', ${local}), 'YYYY-MM')`,
            common_rust: n(saysRust),
            healthy: n(confident('healthy')),
            other_disease: n(confident('other_disease')),
          }),
        )
        .from(analyses)
        .where(
          and(
            userId === null ? undefined : eq(analyses.userId, userId),
            sql`${local} >= cast(${opts.fromDay} as timestamp)`,
            sql`${local} < date_trunc('month', ${localNow}) + interval '1 month'`,
          ),
        )
        .groupBy(sql`1`);
    },

    /** Live (not removed) training samples per label: uploaded by an expert, or made from a farmer's analyses. */
    trainingSamplesByLabel(by: { uploaderId: Param } | { analysisOwnerId: Param }) {
      const live = isNull(trainingSamples.removedAt);
      const select = named({
        common_rust: n(sql`${trainingSamples.label} = 'common_rust'`),
        healthy: n(sql`${trainingSamples.label} = 'healthy'`),
        other_disease: n(sql`${trainingSamples.label} = 'other_disease'`),
      });
      return 'uploaderId' in by
        ? db
            .select(select)
            .from(trainingSamples)
            .where(and(live, eq(trainingSamples.uploaderId, by.uploaderId)))
        : db
            .select(select)
            .from(trainingSamples)
            .innerJoin(analyses, eq(analyses.id, trainingSamples.sourceAnalysisId))
            .where(and(live, eq(analyses.userId, by.analysisOwnerId)));
    },

    /** Training sessions started by this expert (any status), or, with null, the succeeded ones of everyone. */
    trainingSessions(startedBy: Param | null) {
      return db
        .select(named({ n: total() }))
        .from(trainingJobs)
        .where(startedBy === null ? eq(trainingJobs.status, 'succeeded') : eq(trainingJobs.startedBy, startedBy));
    },

    /** The farmer's own posts about a disease (disease type other than none). */
    diseasePostsByAuthor(authorId: Param) {
      return db
        .select(named({ n: total() }))
        .from(posts)
        .where(and(eq(posts.authorId, authorId), ne(posts.diseaseType, 'none')));
    },

    /** Distinct posts about a disease that this expert moderated (any moderation action). */
    diseasePostsModeratedBy(expertId: Param) {
      return db
        .select(named({ n: sql<number>`cast(${countDistinct(posts.id)} as int)` }))
        .from(posts)
        .innerJoin(moderationFacts, and(eq(moderationFacts.targetType, 'post'), eq(moderationFacts.targetId, posts.id)))
        .where(and(eq(moderationFacts.actorId, expertId), ne(posts.diseaseType, 'none')));
    },

    /** A farmer's own activity: questions to experts, posts and bookings, and how many were answered. */
    farmerActivity(farmerId: Param) {
      // A question the farmer asked, not a follow-up Kutu sent to experts by itself (a reason, no question).
      const r = reviewFacts;
      const farmerAsked = sql`${r.askedAt} is not null and (${r.question} is not null or ${r.reason} is null)`;
      const asked = sql`from ${r} join ${analyses} on ${analyses.id} = ${r.analysisId} where ${analyses.userId} = ${farmerId} and ${farmerAsked}`;
      const count = (q: SQL) => sql<number>`cast((${q}) as int)`;
      return db
        .select(
          named({
            questionsAsked: count(sql`select count(*) ${asked}`),
            questionsAnswered: count(sql`select count(*) ${asked} and ${r.reviewedAt} is not null`),
            posts: count(sql`select count(*) from ${posts} where ${posts.authorId} = ${farmerId}`),
            postsAnswered: count(
              sql`select count(*) from ${posts} where ${posts.authorId} = ${farmerId} and exists (select 1 from ${responseFacts} where ${responseFacts.postId} = ${posts.id} and ${responseFacts.kind} = 'expert')`,
            ),
            bookingsPending: count(
              sql`select count(*) from ${bookings} where ${bookings.farmerId} = ${farmerId} and ${bookings.status} = 'pending'`,
            ),
          }),
        )
        .from(sql`(select 1) as one`);
    },

    approvedBookingsOfFarmer(farmerId: Param) {
      return db
        .select(named({ n: total() }))
        .from(bookings)
        .where(and(eq(bookings.farmerId, farmerId), eq(bookings.status, 'approved')));
    },

    approvedBookingsOnSlotsOf(expertId: Param) {
      return db
        .select(named({ n: total() }))
        .from(bookings)
        .where(and(eq(bookings.expertId, expertId), eq(bookings.status, 'approved')));
    },
  };
}

type Rows<Q> = Q extends PromiseLike<infer R> ? R : never;
type Row<Q> = Rows<Q> extends (infer R)[] ? R : never;

export function createDashboardRepo(db: Db) {
  const parts = dashboardParts(db);
  /** The first row of a one-row part, or every row (`all`), as JSON from inside the one statement. */
  const first = (q: SQLWrapper) => sql`(select row_to_json(part) from (${q}) part limit 1)`;
  const all = (q: SQLWrapper) => sql`(select coalesce(json_agg(part), '[]'::json) from (${q}) part)`;
  const viewer = sql.placeholder('viewer');
  const months = {
    timeZone: sql.placeholder('timeZone'),
    fromDay: sql.placeholder('fromDay'),
    now: sql.placeholder('now'),
  };

  /**
   * Everything one dashboard shows, as one statement (one round trip instead of seven, and prepared:
   * PostgreSQL plans it once per connection). Each part is the query it was on its own. Farmers see
   * their own activity; experts see every farmer's analyses and their own training, moderation and bookings.
   */
  function statement(role: 'farmer' | 'expert') {
    const farmer = role === 'farmer';
    const scope = farmer ? viewer : null;
    const q = {
      outcomes: parts.analysisOutcomes(scope),
      perMonth: parts.analysesPerMonth(scope, months),
      training: parts.trainingSamplesByLabel(farmer ? { analysisOwnerId: viewer } : { uploaderId: viewer }),
      sessions: parts.trainingSessions(farmer ? null : viewer),
      diseasePosts: farmer ? parts.diseasePostsByAuthor(viewer) : parts.diseasePostsModeratedBy(viewer),
      bookingsConfirmed: farmer ? parts.approvedBookingsOfFarmer(viewer) : parts.approvedBookingsOnSlotsOf(viewer),
      activity: parts.farmerActivity(viewer),
    };
    const prepared = db
      .select({
        outcomes: first(q.outcomes),
        perMonth: all(q.perMonth),
        training: first(q.training),
        sessions: first(q.sessions),
        diseasePosts: first(q.diseasePosts),
        bookingsConfirmed: first(q.bookingsConfirmed),
        activity: farmer ? first(q.activity) : sql`null`,
      })
      .from(sql`(select 1) as one`)
      .prepare(`dashboard_${role}`);
    const read = <T>(value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as T;
    return async (viewerId: number, at: { timeZone: string; fromMonth: string; now: Date }) => {
      const [row] = await prepared.execute({
        viewer: viewerId,
        timeZone: at.timeZone,
        fromDay: `${at.fromMonth}-01`,
        now: at.now.toISOString(),
      });
      return {
        outcomes: read<Row<typeof q.outcomes>>(row.outcomes),
        perMonth: read<Rows<typeof q.perMonth>>(row.perMonth),
        training: read<Row<typeof q.training>>(row.training),
        sessions: read<{ n: number }>(row.sessions).n,
        diseasePosts: read<{ n: number }>(row.diseasePosts).n,
        bookingsConfirmed: read<{ n: number }>(row.bookingsConfirmed).n,
        activity: read<Row<typeof q.activity> | null>(row.activity),
      };
    };
  }
  const byRole = { farmer: statement('farmer'), expert: statement('expert') };

  return {
    summary(
      viewer: { userId: number; role: 'farmer' | 'expert' },
      at: { timeZone: string; fromMonth: string; now: Date },
    ) {
      return byRole[viewer.role](viewer.userId, at);
    },
  };
}
