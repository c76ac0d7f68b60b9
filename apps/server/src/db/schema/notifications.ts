import { index, integer, uniqueIndex, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { StoredMessage } from '../../i18n/i18n.ts';
import { users } from './auth.ts';

export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** The text as written for the recipient when it was created (notifications older than `text` have only this). */
    message: text('message').notNull(),
    /**
     * The text as a catalog key and its values, rendered in the reader's language each time it is read
     * so that a change of language applies to the notifications already received too.
     */
    text: jsonb('text').$type<StoredMessage>(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    /** The message and person (docs/decisions/0050): telling the same thing twice stores it once. */
    key: text('key'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
    /** Once per key; byte-wise, so it also serves the prefix search by event (`outbreak:<alert>|…`: an extension officer's week counts who was told). */
    uniqueIndex('notifications_key_idx').on(t.key.op('text_pattern_ops')),
  ],
);
