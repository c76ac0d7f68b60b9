import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { fields } from './fields.ts';

/**
 * A plant clinic visit (docs/decisions/0053): an approved expert diagnoses for a farmer who came
 * without a smartphone. Each photo is an analysis of the farmer (`analysis_ids`, the analysis feature's
 * ids); the expert's verdict is the review verdict of each of them.
 */
export const clinicVisits = pgTable(
  'clinic_visits',
  {
    id: serial('id').primaryKey(),
    expertId: integer('expert_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    farmerId: integer('farmer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The expert's Idempotency-Key: a retried form makes no second visit. */
    idempotencyKey: text('idempotency_key'),
    crop: text('crop', { enum: ['maize', 'beans', 'other'] }).notNull(),
    /** The farmer's field the visit is about (docs/decisions/0078); null only when it was retired and erased. */
    fieldId: integer('field_id').references(() => fields.id, { onDelete: 'set null' }),
    variety: text('variety').notNull().default(''),
    growthStage: text('growth_stage').notNull(),
    /** Share of the field affected, in percent, as the expert estimated it. */
    shareAffected: smallint('share_affected').notNull(),
    symptoms: text('symptoms').notNull().default(''),
    analysisIds: integer('analysis_ids').array().notNull(),
    /** Set when the account was made at this visit: the farmer agreed, the expert recorded it. */
    consentAt: timestamp('consent_at', { withTimezone: true }),
    verdict: text('verdict', { enum: ['common_rust', 'healthy', 'other_disease', 'not_leaf', 'cannot_tell'] }),
    severity: text('severity', { enum: ['low', 'moderate', 'severe'] }),
    recommendation: text('recommendation'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** Claimed before the result SMS is sent, so a retried verdict sends no second one. */
    resultSmsAt: timestamp('result_sms_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('clinic_visits_key_idx').on(t.expertId, t.idempotencyKey).where(sql`idempotency_key is not null`),
    index('clinic_visits_expert_idx').on(t.expertId, t.createdAt),
  ],
);
