import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { analyses } from './analysis.ts';

/**
 * Follow-up reminders (docs/decisions/0044). A confident rust diagnosis (advice: treat)
 * gets one row: Kutu asks the farmer to photograph the same field again once it is due, and the next
 * photo of the field (same farmer and crop) closes it with a comparison.
 *
 * - `waiting`: not due yet; a new photo of the field cancels it (`cancelled`, compared all the same).
 * - `sent`: the farmer was asked (in the app, and by SMS unless turned off); the next photo closes it.
 * - `compared`: a photo after the reminder closed it.
 * - `lapsed`: nobody sent a photo within the window after the reminder; a later one is a new story.
 */
export const followUpStates = ['waiting', 'sent', 'cancelled', 'compared', 'lapsed'] as const;
export const followUpOutcomes = ['better', 'less', 'worse', 'unclear'] as const;

export const followUps = pgTable(
  'follow_ups',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The diagnosis whose advice was to treat: one reminder per diagnosis. */
    analysisId: integer('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    /** The field: the farmer's crop as said on the photo ('' when not said). */
    crop: text('crop').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    state: text('state', { enum: followUpStates }).notNull().default('waiting'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The photo that closed it, and what comparing it with the first found. */
    nextAnalysisId: integer('next_analysis_id').references(() => analyses.id, { onDelete: 'set null' }),
    outcome: text('outcome', { enum: followUpOutcomes }),
    /** The next photo went straight to the expert queue (it looked worse). */
    escalated: boolean('escalated').notNull().default(false),
    /** The farmer answers by the USSD menu (a plant clinic visit, docs/decisions/0053): the SMS says so. */
    byUssd: boolean('by_ussd').notNull().default(false),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('follow_ups_analysis_idx').on(t.analysisId),
    // At most one open reminder per farmer and field.
    uniqueIndex('follow_ups_open_field_idx').on(t.userId, t.crop).where(sql`state in ('waiting', 'sent')`),
    index('follow_ups_due_idx').on(t.dueAt).where(sql`state = 'waiting'`),
    index('follow_ups_next_idx').on(t.nextAnalysisId),
    check('follow_ups_state_check', sql`${t.state} in ('waiting', 'sent', 'cancelled', 'compared', 'lapsed')`),
  ],
);
