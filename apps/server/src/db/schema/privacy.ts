import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/**
 * What a person agreed to, purpose by purpose (docs/decisions/0067-consent-and-erasure.md): one row per
 * choice, never changed, so the history shows what was agreed, when, where and to which text. The
 * latest row of a purpose is the person's choice now.
 */
export const consents = pgTable(
  'consents',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `service`: processing to give the service (required); `sms`: SMS messages; `training`: photos train the model. */
    purpose: text('purpose', { enum: ['service', 'sms', 'training'] }).notNull(),
    granted: boolean('granted').notNull(),
    /** The version of the text the person was shown (contract `CONSENT_TEXT_VERSION`). */
    textVersion: text('text_version').notNull(),
    channel: text('channel', { enum: ['web', 'ussd', 'clinic', 'sms', 'profile'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('consents_user_purpose_idx').on(t.userId, t.purpose, t.at),
    check('consents_purpose_check', sql`${t.purpose} in ('service', 'sms', 'training')`),
  ],
);

/**
 * Every account erasure, for the administrator, holding nothing of the person: when, their role, how
 * it was asked for, and how many records of each kind were erased or kept anonymised.
 */
export const erasureLog = pgTable('erasure_log', {
  id: serial('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  role: text('role', { enum: ['farmer', 'expert', 'officer'] }).notNull(),
  requestedVia: text('requested_via', { enum: ['web', 'sms'] }).notNull(),
  counts: jsonb('counts').$type<Record<string, number>>().notNull(),
});
