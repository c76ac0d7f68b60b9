import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ReviewVerdict, SeverityBandName } from '@kutu/contract';
import type { Db, Tx } from '../../db/client.ts';
import type { StoredMessage } from '../../i18n/i18n.ts';
import { expertReviews, users } from '../../db/schema/index.ts';

export type ReviewRow = typeof expertReviews.$inferSelect;
/** An expert's decision: the verdict, a note, and their own severity (rust verdicts only). */
export type Decision = { verdict: ReviewVerdict; note: string | null; severity: SeverityBandName | null };
export type ReviewWithNames = ReviewRow & { reviewerName: string | null };

const reviewer = alias(users, 'reviewer');

/** Whether the review counts as "waiting" in the queue: nobody decided yet. */
export const notDecided = isNull(expertReviews.reviewedAt);
/** Undecided, and no other expert holds a claim that has not run out. */
const openTo = (expertId: number, now: Date) =>
  and(
    notDecided,
    or(isNull(expertReviews.claimedBy), eq(expertReviews.claimedBy, expertId), lt(expertReviews.claimedUntil, now)),
  );

/** One item's review: who holds it, the decision and its revision, the farmer's question, Kutu's reason. */
export function createDecisionsRepo(db: Db) {
  return {
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

    /**
     * Puts an analysis back in front of the experts with Kutu's reason even when it was decided (the
     * farmer says the field got worse since): undecided again, it waits with the asked-about ones. The
     * verdict, its reviewer and its training sample stay until an expert decides again (their decision
     * relabels the sample); the outbreak case keeps the verdict it had.
     */
    async reopen(analysisId: number, reason: StoredMessage, now: Date, runner: Db | Tx = db): Promise<void> {
      await runner
        .insert(expertReviews)
        .values({ analysisId, reason, askedAt: now, createdAt: now })
        .onConflictDoUpdate({
          target: expertReviews.analysisId,
          set: {
            reason,
            askedAt: sql`case when ${notDecided} then coalesce(${expertReviews.askedAt}, ${now.toISOString()}::timestamptz) else ${now.toISOString()}::timestamptz end`,
            reviewedAt: null,
            claimedBy: null,
            claimedUntil: null,
          },
        });
    },
  };
}
