import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { analyses } from './analysis.ts';
import type { StoredText } from '../../i18n/i18n.ts';

export const trainingSamples = pgTable(
  'training_samples',
  {
    id: serial('id').primaryKey(),
    /** Null once the uploader erased their account: the labelled photo stays, pointing to nobody. */
    uploaderId: integer('uploader_id').references(() => users.id, { onDelete: 'set null' }),
    imagePath: text('image_path').notNull(),
    label: text('label', { enum: ['common_rust', 'healthy', 'other_disease'] }).notNull(),
    cropType: text('crop_type'),
    sourceAnalysisId: integer('source_analysis_id').references(() => analyses.id, { onDelete: 'set null' }),
    /** For a sample made from a farmer's analysis: the model version that analysed it (provenance). */
    sourceModelVersion: text('source_model_version'),
    /** SHA-256 of the stored file: lets a job leave out copies of evaluation images. */
    sha256: text('sha256'),
    /**
     * Held back from training for the field check (docs/decisions/0086): a farmer's verified photo when
     * that farmer is one of the held-back ones; fixed when the sample is made, so a photo never changes side.
     */
    heldOut: boolean('held_out').notNull().default(false),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('training_samples_label_idx').on(t.label, t.id).where(sql`removed_at is null`),
    index('training_samples_created_idx').on(t.createdAt),
  ],
);

export const modelVersions = pgTable('model_versions', {
  id: serial('id').primaryKey(),
  version: text('version').notNull().unique(),
  path: text('path').notNull(),
  metrics: jsonb('metrics').$type<Record<string, unknown>>().notNull().default({}),
  /** The activation gate's verdict; its rule and reason are Messages (English text in rows before 0014). */
  decision: jsonb('decision').$type<Record<string, unknown>>(),
  isActive: boolean('is_active').notNull().default(false),
  trainedBy: integer('trained_by').references(() => users.id, { onDelete: 'set null' }),
  sampleCount: integer('sample_count').notNull().default(0),
  jobId: integer('job_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  activatedAt: timestamp('activated_at', { withTimezone: true }),
});

/**
 * Every activation of a stored model version, by whom (docs/decisions/0118). `override`: the gate had not
 * activated it on its own, so an administrator did, after confirming the field figures kept here.
 */
export const modelActivations = pgTable(
  'model_activations',
  {
    id: serial('id').primaryKey(),
    versionId: integer('version_id')
      .notNull()
      .references(() => modelVersions.id, { onDelete: 'cascade' }),
    activatedBy: integer('activated_by').references(() => users.id, { onDelete: 'set null' }),
    override: boolean('override').notNull().default(false),
    fieldCheck: jsonb('field_check').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('model_activations_created_idx').on(t.createdAt)],
);

export const trainingJobs = pgTable(
  'training_jobs',
  {
    id: serial('id').primaryKey(),
    startedBy: integer('started_by').references(() => users.id, { onDelete: 'set null' }),
    trigger: text('trigger', { enum: ['manual', 'auto'] }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'rejected', 'failed'] })
      .notNull()
      .default('queued'),
    stage: text('stage'),
    epoch: integer('epoch'),
    epochs: integer('epochs'),
    /** The trainer's latest numbers (loss, accuracy) for the progress display. */
    progress: jsonb('progress').$type<Record<string, unknown>>(),
    sampleCount: integer('sample_count'),
    candidateVersion: text('candidate_version'),
    /** Candidate and active metrics and the rule applied, once evaluated (rule and reason as in `decision`). */
    result: jsonb('result').$type<Record<string, unknown>>(),
    /** Why it failed, shown in each reader's language: a Message; English text in jobs failed before 0014. */
    error: jsonb('error').$type<StoredText>(),
    /** The queue's id for this job (pg-boss). */
    queueJobId: text('queue_job_id'),
    /** Refreshed while the job runs; a running job with an old heartbeat was left by a dead process. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    /** One retraining at a time, enforced by the database. */
    uniqueIndex('training_jobs_one_active_idx').on(sql`(true)`).where(sql`status in ('queued', 'running')`),
    index('training_jobs_created_idx').on(t.createdAt),
  ],
);
