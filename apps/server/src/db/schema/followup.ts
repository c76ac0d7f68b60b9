import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { analyses } from './analysis.ts';
import { fields, scoutingWalks } from './fields.ts';

/**
 * Follow-up reminders (docs/decisions/0044, per field since 0078). A confident rust diagnosis (advice: treat)
 * or a scouting walk that found rust opens one for its field: Kutu asks the farmer to walk the field again
 * once it is due, and the field's next walk closes it with a comparison (a follow-up photo still can).
 *
 * - `waiting`: not due yet; the field's next walk (or a follow-up photo) cancels it, compared all the same.
 * - `sent`: the farmer was asked (in the app, and by SMS unless turned off); the next walk or photo closes it.
 * - `compared`: a walk or photo after the reminder closed it.
 * - `lapsed`: nobody answered within the window after the reminder; a later walk is a new story.
 */
export const followUpStates = ['waiting', 'sent', 'cancelled', 'compared', 'lapsed'] as const;
/** A photo's outcomes (better, less, worse, unclear) and a walk's (better, same, worse, too_few_plants). */
export const followUpOutcomes = ['better', 'less', 'worse', 'unclear', 'same', 'too_few_plants'] as const;

export const followUps = pgTable(
  'follow_ups',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The field the reminder asks about: one open reminder per field. */
    fieldId: integer('field_id')
      .notNull()
      .references(() => fields.id, { onDelete: 'cascade' }),
    /** The diagnosis whose advice was to treat (one reminder per diagnosis), or null for a walk's reminder. */
    analysisId: integer('analysis_id').references(() => analyses.id, { onDelete: 'cascade' }),
    /** The walk that found rust and opened it (one reminder per walk), or null for a diagnosis's reminder. */
    walkId: integer('walk_id').references(() => scoutingWalks.id, { onDelete: 'cascade' }),
    /** The field's crop as said on the photo ('' when not said), or the field's crop for a walk's reminder. */
    crop: text('crop').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    state: text('state', { enum: followUpStates }).notNull().default('waiting'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The walk that closed it (its comparison with the walk before is the outcome). */
    nextWalkId: integer('next_walk_id').references(() => scoutingWalks.id, { onDelete: 'set null' }),
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
    uniqueIndex('follow_ups_walk_idx').on(t.walkId),
    // At most one open reminder per field (two bean fields: two reminders).
    uniqueIndex('follow_ups_open_field_idx').on(t.fieldId).where(sql`state in ('waiting', 'sent')`),
    index('follow_ups_user_idx').on(t.userId),
    index('follow_ups_due_idx').on(t.dueAt).where(sql`state = 'waiting'`),
    index('follow_ups_next_idx').on(t.nextAnalysisId),
    check('follow_ups_opened_by_check', sql`${t.analysisId} is not null or ${t.walkId} is not null`),
    check('follow_ups_state_check', sql`${t.state} in ('waiting', 'sent', 'cancelled', 'compared', 'lapsed')`),
  ],
);
