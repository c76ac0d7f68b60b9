import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { StoredMessage } from '../../i18n/i18n.ts';
import { users } from './auth.ts';
import { analyses } from './analysis.ts';

export const reviewVerdicts = ['common_rust', 'healthy', 'other_disease', 'not_leaf', 'cannot_tell'] as const;

/**
 * Expert review of one analysis: the farmer's question (if they asked), the current claim, and the
 * one decision. A row exists once someone asked, claimed or decided; analyses without one are
 * waiting in the queue too.
 */
export const expertReviews = pgTable(
  'expert_reviews',
  {
    analysisId: integer('analysis_id')
      .primaryKey()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    question: text('question'),
    /**
     * Why Kutu itself put the photo in front of the experts (a follow-up that looked worse,
     * docs/decisions/0044), as a catalog key and values rendered in the expert's language; null for the others.
     */
    reason: jsonb('reason').$type<StoredMessage>(),
    askedAt: timestamp('asked_at', { withTimezone: true }),
    claimedBy: integer('claimed_by').references(() => users.id, { onDelete: 'set null' }),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    reviewerId: integer('reviewer_id').references(() => users.id, { onDelete: 'set null' }),
    verdict: text('verdict', { enum: reviewVerdicts }),
    note: text('note'),
    /** The expert's own severity (low, moderate, severe) with a rust verdict; null otherwise (docs/decisions/0045). */
    severity: text('severity', { enum: ['low', 'moderate', 'severe'] }),
    /** The training sample the decision created (training feature's id), while it trains a class. */
    sampleId: integer('sample_id'),
    /** The community post the farmer made from the exchange (community feature's id). */
    communityPostId: integer('community_post_id'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    revisedAt: timestamp('revised_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('expert_reviews_asked_waiting_idx').on(t.askedAt).where(sql`asked_at is not null and reviewed_at is null`),
    index('expert_reviews_reviewer_idx').on(t.reviewerId, t.reviewedAt),
  ],
);
