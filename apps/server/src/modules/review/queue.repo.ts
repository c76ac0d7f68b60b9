import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, notExists, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ModelAnswer } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import type { StoredMessage } from '../../i18n/i18n.ts';
import { expertReviews, users } from '../../db/schema/index.ts';
import { analysisFacts } from '../analysis/analysis.service.ts';
import { notDecided } from './decisions.repo.ts';

interface Window {
  limit: number;
  offset: number;
}

/**
 * The queue reads the analysis module's `analysisFacts` (read only): sorting and filtering tens of
 * thousands of analyses needs one indexed query, which that joinable subquery keeps (PostgreSQL folds it
 * into the table's own plan) and a service call could not give. Writes stay with each feature.
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

const claimer = alias(users, 'claimer');
const farmer = alias(users, 'farmer');

function filterSql(f: QueueFilters): SQL | undefined {
  let outcome: SQL | undefined;
  if (f.outcome === 'not_leaf') outcome = eq(analysisFacts.outcome, 'not_leaf');
  else if (f.outcome === 'unsure')
    outcome = and(eq(analysisFacts.outcome, 'diagnosis'), eq(analysisFacts.unsure, true));
  else if (f.outcome) {
    outcome = and(
      eq(analysisFacts.outcome, 'diagnosis'),
      eq(analysisFacts.unsure, false),
      eq(analysisFacts.rustClass, f.outcome),
    );
  }
  return and(
    // Try-out data (npm run outbreak:demo) has no photo to review.
    eq(analysisFacts.demo, false),
    f.crop ? eq(analysisFacts.crop, f.crop as 'maize') : undefined,
    outcome,
    f.modelVersion ? eq(analysisFacts.modelVersion, f.modelVersion) : undefined,
    f.district ? sql`${analysisFacts.userId} in (select id from users where district = ${f.district})` : undefined,
    f.from ? gte(analysisFacts.createdAt, f.from) : undefined,
    f.until ? lt(analysisFacts.createdAt, f.until) : undefined,
  );
}

/** Unsure first, then the smallest margin between the top two classes, then newest. */
const modelOrder = [
  desc(analysisFacts.unsure),
  asc(analysisFacts.margin),
  desc(analysisFacts.createdAt),
  desc(analysisFacts.id),
];

type QueueRow = {
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

/** The experts' queue: what waits for a decision, in the order they should look at it. */
export function createQueueRepo(db: Db) {
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
          eq(expertReviews.analysisId, analysisFacts.id),
          or(isNotNull(expertReviews.askedAt), isNotNull(expertReviews.reviewedAt)),
        ),
      ),
  );

  async function countAsked(where: SQL | undefined): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(analysisFacts)
      .innerJoin(expertReviews, eq(expertReviews.analysisId, analysisFacts.id))
      .where(and(askedWaiting, where));
    return row?.n ?? 0;
  }

  async function countPlain(where: SQL | undefined): Promise<number> {
    const [row] = await db.select({ n: count() }).from(analysisFacts).where(and(plainWaiting, where));
    return row?.n ?? 0;
  }

  /** Names, questions and claims of one page of analyses. */
  async function details(ids: number[]): Promise<QueueRow[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .select({
        analysisId: analysisFacts.id,
        farmerId: analysisFacts.userId,
        farmerName: farmer.username,
        margin: analysisFacts.margin,
        question: expertReviews.question,
        reason: expertReviews.reason,
        askedAt: expertReviews.askedAt,
        claimedBy: expertReviews.claimedBy,
        claimedByName: claimer.username,
        claimedUntil: expertReviews.claimedUntil,
      })
      .from(analysisFacts)
      .leftJoin(expertReviews, eq(expertReviews.analysisId, analysisFacts.id))
      .leftJoin(farmer, eq(farmer.id, analysisFacts.userId))
      .leftJoin(claimer, eq(claimer.id, expertReviews.claimedBy))
      .where(inArray(analysisFacts.id, ids));
    const byId = new Map(rows.map((r) => [r.analysisId, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  return {
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
          .select({ id: analysisFacts.id })
          .from(analysisFacts)
          .innerJoin(expertReviews, eq(expertReviews.analysisId, analysisFacts.id))
          .where(and(askedWaiting, where))
          .orderBy(...modelOrder)
          .limit(window.limit)
          .offset(window.offset);
        ids.push(...asked.map((r) => r.id));
      }
      const left = window.limit - ids.length;
      if (left > 0) {
        const plain = await db
          .select({ id: analysisFacts.id })
          .from(analysisFacts)
          .where(and(plainWaiting, where))
          .orderBy(...modelOrder)
          .limit(left)
          .offset(Math.max(0, window.offset - askedTotal));
        ids.push(...plain.map((r) => r.id));
      }
      return { rows: await details(ids), total: askedTotal + plainTotal };
    },
  };
}
