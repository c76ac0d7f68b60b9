import { languages } from '@kutu/contract';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { oneOf } from '../value-list.ts';
import { users } from './auth.ts';
import { officerActions } from './extension.ts';

/**
 * "Call me back" requests from a basic phone (USSD menu or the CALL ME SMS, docs/decisions/0051): an
 * expert sees the open ones in the app, calls the farmer in their language and marks the request done;
 * an extension officer's recorded call to the farmer closes it too, with its note.
 */
export const callbackRequests = pgTable(
  'callback_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The language the farmer wants to be called in (their account's when they asked). */
    language: text('language', { enum: languages }).notNull(),
    /** `ussd`, `sms` or `call` (a key pressed in Kutu's voice call): how the farmer asked. */
    channel: text('channel', { enum: ['ussd', 'sms', 'call'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    doneAt: timestamp('done_at', { withTimezone: true }),
    doneBy: integer('done_by').references(() => users.id, { onDelete: 'set null' }),
    /** The extension officer's recorded call that closed it (their note says what was said), if one did. */
    doneActionId: integer('done_action_id').references(() => officerActions.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('callback_requests_open_idx').on(t.createdAt).where(sql`done_at is null`),
    index('callback_requests_user_idx').on(t.userId),
    check('callback_requests_channel_check', sql`${t.channel} in ('ussd', 'sms', 'call')`),
    check('callback_requests_language_check', oneOf(t.language, languages)),
  ],
);

/**
 * USSD requests that ended in an action (a registration, alerts on or off, a call back, a follow-up
 * answer): the gateway, or anyone, sending the same session and answers again gets the same reply and the
 * action does not run twice. Inbound SMS are kept here too, by the gateway's id (`sms:<id>`, empty text),
 * so one posted again is not acted on twice. Kept a day.
 */
export const ussdActions = pgTable(
  'ussd_actions',
  {
    sessionId: text('session_id').notNull(),
    phone: text('phone').notNull(),
    text: text('text').notNull(),
    /** What the action answered; null while it runs. */
    reply: text('reply'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.phone, t.text] }), index('ussd_actions_created_idx').on(t.createdAt)],
);
