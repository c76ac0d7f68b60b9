import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  notExists,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ModelAnswer, ReviewVerdict, SeverityBandName } from '@kutu/contract';
import type { Db, Tx } from '../../db/client.ts';
import type { StoredMessage } from '../../i18n/i18n.ts';
import { analyses, expertReviews, users } from '../../db/schema/index.ts';

export type ReviewRow = typeof expertReviews.$inferSelect;
/** An expert's decision: the verdict, a note, and their own severity (rust verdicts only). */
export type Decision = { verdict: ReviewVerdict; note: string | null; severity: SeverityBandName | null };

/**
 * The queue reads the analyses table (read only): sorting and filtering tens of thousands of
 * analyses needs one indexed query, which no service call can give. Writes stay with each feature.
 */
export interface QueueFilters {
  crop?: string;
  outcome?: ModelAnswer;
  modelVersion?: string;
  /** Only photos of farmers in this district or county (the outbreak table links to the queue with it). */
  district?: string;
  /** Inclusive lower and exclusive upper bound on created_at. */
  from?: Date;
  until?: Date;
}

interface Window {
  limit: number;
  offset: number;
}

const claimer = alias(users, 'claimer');
const farmer = alias(users, 'farmer');
const reviewer = alias(users, 'reviewer');

/** Whether the review counts as "waiting" in the queue: nobody decided yet. */
const notDecided = isNull(expertReviews.reviewedAt);
/** Undecided, and no other expert holds a claim that has not run out. */
const openTo = (expertId: number, now: Date) =>
  and(
    notDecided,
    or(isNull(expertReviews.claimedBy), eq(expertReviews.claimedBy, expertId), lt(expertReviews.claimedUntil, now)),
  );
/** The model's answer in the terms of a verdict (unsure counts on its own). */
export const modelAnswerSql = sql<ModelAnswer>`case when ${analyses.outcome} = 'not_leaf' then 'not_leaf' when ${analyses.unsure} then 'unsure' else ${analyses.rustClass} end`;

function filterSql(f: QueueFilters): SQL | undefined {
  let outcome: SQL | undefined;
  if (f.outcome === 'not_leaf') outcome = eq(analyses.outcome, 'not_leaf');
  else if (f.outcome === 'unsure') outcome = and(eq(analyses.outcome, 'diagnosis'), eq(analyses.unsure, true));
  else if (f.outcome) {
    outcome = and(eq(analyses.outcome, 'diagnosis'), eq(analyses.unsure, false), eq(analyses.rustClass, f.outcome));
  }
  return and(
    // Try-out data (npm run outbreak:demo) has no photo to review.
    eq(analyses.demo, false),
    f.crop ? eq(analyses.crop, f.crop as 'maize') : undefined,
    outcome,
    f.modelVersion ? eq(analyses.modelVersion, f.modelVersion) : undefined,
    f.district ? sql`${analyses.userId} in (select id from users where district = ${f.district})` : undefined,
    f.from ? gte(analyses.createdAt, f.from) : undefined,
    f.until ? lt(analyses.createdAt, f.until) : undefined,
  );
}

/** Unsure first, then the smallest margin between the top two classes, then newest. */
const modelOrder = [desc(analyses.unsure), asc(analyses.margin), desc(analyses.createdAt), desc(analyses.id)];

export type QueueRow = {
  analysisId: number;
  farmerId: number;
  farmerName: string | null;
  margin: number | null;
  question: string | null;
  reason: StoredMessage | null;
  askedAt: Date | null;
  claimedBy: number | null;
  claimedByName: string | null;
  claimedUntil: Date | null;
};

export type ReviewWithNames = ReviewRow & { reviewerName: string | null };

export function createReviewRepo(db: Db) {
  /** Analyses a farmer asked about, not yet decided (a small set: joined and sorted directly). */
  const askedWaiting = and(isNotNull(expertReviews.askedAt), notDecided);
  /**
   * Analyses nobody asked about and nobody decided. NOT EXISTS lets PostgreSQL walk the order index
   * and stop after one page, where a left join would sort every analysis first.
   */
  const plainWaiting = notExists(
    db
      .select({ one: sql`1` })
      .from(expertReviews)
      .where(
        and(
          eq(expertReviews.analysisId, analyses.id),
          or(isNotNull(expertReviews.askedAt), isNotNull(expertReviews.reviewedAt)),
        ),
      ),
  );

  async function countAsked(where: SQL | undefined): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(analyses)
      .innerJoin(expertReviews, eq(expertReviews.analysisId, analyses.id))
      .where(and(askedWaiting, where));
    return row?.n ?? 0;
  }

  async function countPlain(where: SQL | undefined): Promise<number> {
    const [row] = await db.select({ n: count() }).from(analyses).where(and(plainWaiting, where));
    return row?.n ?? 0;
  }

  /** Names, questions and claims of one page of analyses. */
  async function details(ids: number[]): Promise<QueueRow[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .select({
        analysisId: analyses.id,
        farmerId: analyses.userId,
        farmerName: farmer.username,
        margin: analyses.margin,
        question: expertReviews.question,
        reason: expertReviews.reason,
        askedAt: expertReviews.askedAt,
        claimedBy: expertReviews.claimedBy,
        claimedByName: claimer.username,
        claimedUntil: expertReviews.claimedUntil,
      })
      .from(analyses)
      .leftJoin(expertReviews, eq(expertReviews.analysisId, analyses.id))
      .leftJoin(farmer, eq(farmer.id, analyses.userId))
      .leftJoin(claimer, eq(claimer.id, expertReviews.claimedBy))
      .where(inArray(analyses.id, ids));
    const byId = new Map(rows.map((r) => [r.analysisId, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  return {
    /** Where a farmer is told of a verdict outside the app: the phone, and the email when there is one. */
    async contactOf(userId: number): Promise<{ email: string | null; phone: string } | undefined> {
      const [row] = await db.select({ email: users.email, phone: users.phone }).from(users).where(eq(users.id, userId));
      return row;
    },

    /**
     * One page of the queue: analyses a farmer asked about first, then the rest, each part in the
     * model order. Two index-ordered queries instead of one sort over every analysis.
     */
    async queuePage(filters: QueueFilters, window: Window): Promise<{ rows: QueueRow[]; total: number }> {
      const where = filterSql(filters);
      const [askedTotal, plainTotal] = await Promise.all([countAsked(where), countPlain(where)]);
      const ids: number[] = [];
      if (window.offset < askedTotal) {
        const asked = await db
          .select({ id: analyses.id })
          .from(analyses)
          .innerJoin(expertReviews, eq(expertReviews.analysisId, analyses.id))
          .where(and(askedWaiting, where))
          .orderBy(...modelOrder)
          .limit(window.limit)
          .offset(window.offset);
        ids.push(...asked.map((r) => r.id));
      }
      const left = window.limit - ids.length;
      if (left > 0) {
        const plain = await db
          .select({ id: analyses.id })
          .from(analyses)
          .where(and(plainWaiting, where))
          .orderBy(...modelOrder)
          .limit(left)
          .offset(Math.max(0, window.offset - askedTotal));
        ids.push(...plain.map((r) => r.id));
      }
      return { rows: await details(ids), total: askedTotal + plainTotal };
    },

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

    async find(analysisId: number): Promise<ReviewWithNames | undefined> {
      const [row] = await db
        .select({ review: expertReviews, reviewerName: reviewer.username })
        .from(expertReviews)
        .leftJoin(reviewer, eq(reviewer.id, expertReviews.reviewerId))
        .where(eq(expertReviews.analysisId, analysisId));
      return row ? { ...row.review, reviewerName: row.reviewerName } : undefined;
    },

    async claimerName(userId: number): Promise<string | null> {
      const [row] = await db.select({ name: users.username }).from(users).where(eq(users.id, userId));
      return row?.name ?? null;
    },

    /**
     * Claims an undecided item for `expertId` until `until`, unless another expert holds a claim
     * that has not run out. One statement, so two experts racing cannot both win.
     */
    async claim(analysisId: number, expertId: number, now: Date, until: Date): Promise<ReviewRow | undefined> {
      const [row] = await db
        .insert(expertReviews)
        .values({ analysisId, claimedBy: expertId, claimedUntil: until, createdAt: now })
        .onConflictDoUpdate({
          target: expertReviews.analysisId,
          set: { claimedBy: expertId, claimedUntil: until },
          setWhere: openTo(expertId, now),
        })
        .returning();
      return row;
    },

    async release(analysisId: number, expertId: number): Promise<boolean> {
      const r = await db
        .update(expertReviews)
        .set({ claimedBy: null, claimedUntil: null })
        .where(and(eq(expertReviews.analysisId, analysisId), eq(expertReviews.claimedBy, expertId)))
        .returning({ id: expertReviews.analysisId });
      return r.length > 0;
    },

    /**
     * Records the first decision on an item: only while nobody decided and no other expert holds a
     * live claim. Returns undefined when someone else got there first.
     */
    async decideFirst(
      analysisId: number,
      expertId: number,
      decision: Decision,
      now: Date,
    ): Promise<ReviewRow | undefined> {
      const values = {
        reviewerId: expertId,
        verdict: decision.verdict,
        note: decision.note,
        severity: decision.severity,
        reviewedAt: now,
        claimedBy: null,
        claimedUntil: null,
      };
      const [row] = await db
        .insert(expertReviews)
        .values({ analysisId, ...values, createdAt: now })
        .onConflictDoUpdate({
          target: expertReviews.analysisId,
          set: values,
          setWhere: openTo(expertId, now),
        })
        .returning();
      return row;
    },

    /** Changes a decision; only its own reviewer may. */
    async revise(analysisId: number, expertId: number, decision: Decision, now: Date): Promise<ReviewRow | undefined> {
      const [row] = await db
        .update(expertReviews)
        .set({ verdict: decision.verdict, note: decision.note, severity: decision.severity, revisedAt: now })
        .where(and(eq(expertReviews.analysisId, analysisId), eq(expertReviews.reviewerId, expertId)))
        .returning();
      return row;
    },

    async setSample(analysisId: number, sampleId: number | null): Promise<void> {
      await db.update(expertReviews).set({ sampleId }).where(eq(expertReviews.analysisId, analysisId));
    },

    async setCommunityPost(analysisId: number, postId: number): Promise<boolean> {
      const r = await db
        .update(expertReviews)
        .set({ communityPostId: postId })
        .where(and(eq(expertReviews.analysisId, analysisId), isNull(expertReviews.communityPostId)))
        .returning({ id: expertReviews.analysisId });
      return r.length > 0;
    },

    /** Records (or rewords) the farmer's question while the item is undecided. */
    async ask(analysisId: number, question: string, now: Date): Promise<ReviewRow | undefined> {
      const [row] = await db
        .insert(expertReviews)
        .values({ analysisId, question, askedAt: now, createdAt: now })
        .onConflictDoUpdate({
          target: expertReviews.analysisId,
          set: { question, askedAt: sql`coalesce(${expertReviews.askedAt}, ${now.toISOString()}::timestamptz)` },
          setWhere: notDecided,
        })
        .returning();
      return row;
    },

    /**
     * Puts an undecided analysis at the front of the queue (with the asked-about ones) with Kutu's
     * reason for it; a decided one stays decided. The farmer's own question, if any, is kept.
     */
    async escalate(analysisId: number, reason: StoredMessage, now: Date, runner: Db | Tx = db): Promise<boolean> {
      const rows = await runner
        .insert(expertReviews)
        .values({ analysisId, reason, askedAt: now, createdAt: now })
        .onConflictDoUpdate({
          target: expertReviews.analysisId,
          set: { reason, askedAt: sql`coalesce(${expertReviews.askedAt}, ${now.toISOString()}::timestamptz)` },
          setWhere: notDecided,
        })
        .returning({ id: expertReviews.analysisId });
      return rows.length > 0;
    },

    /** The farmer's analyses that they asked about or that an expert decided, newest first. */
    async listForFarmer(farmerId: number, window: Window): Promise<{ ids: number[]; total: number }> {
      const where = and(
        eq(analyses.userId, farmerId),
        or(isNotNull(expertReviews.askedAt), isNotNull(expertReviews.reviewedAt)),
      );
      const [rows, [total]] = await Promise.all([
        db
          .select({ id: analyses.id })
          .from(expertReviews)
          .innerJoin(analyses, eq(analyses.id, expertReviews.analysisId))
          .where(where)
          .orderBy(desc(sql`coalesce(${expertReviews.reviewedAt}, ${expertReviews.askedAt})`), desc(analyses.id))
          .limit(window.limit)
          .offset(window.offset),
        db
          .select({ n: count() })
          .from(expertReviews)
          .innerJoin(analyses, eq(analyses.id, expertReviews.analysisId))
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
  };
}
