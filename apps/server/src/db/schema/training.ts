import { boolean, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { analyses } from './analysis.ts';

export const trainingSamples = pgTable('training_samples', {
  id: serial('id').primaryKey(),
  uploaderId: integer('uploader_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  imagePath: text('image_path').notNull(),
  label: text('label', { enum: ['common_rust', 'healthy', 'other_disease'] }).notNull(),
  cropType: text('crop_type'),
  sourceAnalysisId: integer('source_analysis_id').references(() => analyses.id, { onDelete: 'set null' }),
  removedAt: timestamp('removed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const modelVersions = pgTable('model_versions', {
  id: serial('id').primaryKey(),
  version: text('version').notNull().unique(),
  path: text('path').notNull(),
  metrics: jsonb('metrics').$type<Record<string, unknown>>().notNull().default({}),
  decision: jsonb('decision').$type<Record<string, unknown>>(),
  isActive: boolean('is_active').notNull().default(false),
  trainedBy: integer('trained_by').references(() => users.id, { onDelete: 'set null' }),
  sampleCount: integer('sample_count').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  activatedAt: timestamp('activated_at', { withTimezone: true }),
});

export const trainingJobs = pgTable('training_jobs', {
  id: serial('id').primaryKey(),
  startedBy: integer('started_by').references(() => users.id, { onDelete: 'set null' }),
  trigger: text('trigger', { enum: ['manual', 'auto'] }).notNull(),
  status: text('status', { enum: ['queued', 'running', 'succeeded', 'rejected', 'failed'] })
    .notNull()
    .default('queued'),
  stage: text('stage'),
  epoch: integer('epoch'),
  epochs: integer('epochs'),
  candidateVersion: text('candidate_version'),
  error: text('error'),
  startedAt: timestamp('started_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
