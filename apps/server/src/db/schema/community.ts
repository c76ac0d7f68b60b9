import { type AnyPgColumn, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { analyses } from './analysis.ts';

/** One moderation state per post and per comment, so a post can never be both flagged and approved. */
export const moderationStatuses = ['pending', 'approved', 'flagged'] as const;

export const posts = pgTable(
  'posts',
  {
    id: serial('id').primaryKey(),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    content: text('content').notNull(),
    imagePath: text('image_path'),
    cropType: text('crop_type').notNull(),
    diseaseType: text('disease_type').notNull(),
    urgencyLevel: text('urgency_level').notNull(),
    analysisId: integer('analysis_id').references(() => analyses.id, { onDelete: 'set null' }),
    status: text('status', { enum: moderationStatuses }).notNull().default('pending'),
    /** The reason the last moderator gave (shown to the author with a flagged post). */
    moderationReason: text('moderation_reason'),
    moderatedBy: integer('moderated_by').references(() => users.id, { onDelete: 'set null' }),
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('posts_status_created_idx').on(t.status, t.createdAt),
    index('posts_author_created_idx').on(t.authorId, t.createdAt),
  ],
);

/**
 * Comments on a post: farmers' comments (moderated: pending until an expert approves) and expert
 * comments (approved when written; `replyToId` names the farmer comment an expert answered while moderating).
 */
export const responses = pgTable(
  'responses',
  {
    id: serial('id').primaryKey(),
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['farmer', 'expert'] })
      .notNull()
      .default('farmer'),
    replyToId: integer('reply_to_id').references((): AnyPgColumn => responses.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    status: text('status', { enum: moderationStatuses }).notNull().default('pending'),
    moderatedBy: integer('moderated_by').references(() => users.id, { onDelete: 'set null' }),
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('responses_post_idx').on(t.postId, t.createdAt),
    index('responses_author_created_idx').on(t.authorId, t.createdAt),
  ],
);

/** Every moderation action: who, what, on which post or comment, from and to which state, when, why. */
export const moderationAudit = pgTable(
  'moderation_audit',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    targetType: text('target_type', { enum: ['post', 'response'] }).notNull(),
    targetId: integer('target_id').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('moderation_audit_created_idx').on(t.createdAt)],
);
