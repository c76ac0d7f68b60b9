import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { analyses } from './analysis.ts';

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
    status: text('status', { enum: ['pending', 'approved', 'flagged'] })
      .notNull()
      .default('pending'),
    moderatedBy: integer('moderated_by').references(() => users.id, { onDelete: 'set null' }),
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('posts_status_created_idx').on(t.status, t.createdAt)],
);

/** Comments on a post by farmers (moderated) and experts (shown as expert comments). */
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
    content: text('content').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'flagged'] })
      .notNull()
      .default('pending'),
    moderatedBy: integer('moderated_by').references(() => users.id, { onDelete: 'set null' }),
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('responses_post_idx').on(t.postId, t.createdAt)],
);

export const moderationAudit = pgTable('moderation_audit', {
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
});
