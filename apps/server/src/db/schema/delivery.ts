import { sql } from 'drizzle-orm';
import { deliveryChannels, languages } from '@kutu/contract';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { StoredMessage } from '../../i18n/i18n.ts';
import { users } from './auth.ts';

/**
 * The outbox (docs/decisions/0050): one row per message, person and channel outside the app (SMS,
 * email), written in the transaction of the event that causes it; the delivery worker sends it.
 *
 * - `waiting`: to send at `next_at` (first try, or a retry after a failed send).
 * - `sending`: claimed by a worker until `lease_until`; a lease that ran out (a dead worker) is claimed again.
 * - `sent`: the gateway accepted it (`gateway_id`, later `report` from its delivery report).
 * - `failed`: failed for good (`error`: the gateway's answer); an administrator may send it again.
 * - `skipped`: not sent on purpose (the person turned SMS off, or has no email address).
 */
/** A file an email carries, kept in its outbox row so that a retry sends the same bytes. */
export type StoredAttachment = { filename: string; contentType: string; base64: string };

export const deliveryStates = ['waiting', 'sending', 'sent', 'failed', 'skipped'] as const;

export const deliveries = pgTable(
  'deliveries',
  {
    id: serial('id').primaryKey(),
    /** The message, person and channel: a second write of the same message is a no-op. */
    key: text('key').notNull(),
    /** The person; null for a number without an account (the reply to its inbound SMS): `address` instead. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A number without an account, and the language its reply is in; null for a person's message. */
    address: text('address'),
    language: text('language', { enum: languages }),
    /** One of the contract's `deliveryChannels`; plain text in the database (no check), so a new channel needs no migration. */
    channel: text('channel', { enum: deliveryChannels }).notNull(),
    /** Which SMS permission applies (`smsAllowed`): alert, reminder, service. */
    kind: text('kind').notNull(),
    /** The text as a catalog key and values, rendered in the person's language when it is sent. */
    body: jsonb('body').$type<StoredMessage>().notNull(),
    subject: jsonb('subject').$type<StoredMessage>(),
    link: text('link'),
    /** An email's files (the Monday bulletin's CSV and PDF, docs/decisions/0122), as written; null for most. */
    attachments: jsonb('attachments').$type<StoredAttachment[]>(),
    state: text('state', { enum: deliveryStates }).notNull().default('waiting'),
    attempts: integer('attempts').notNull().default(0),
    /** SMS parts the gateway already took (a long text goes as numbered parts): a retry sends only the rest. */
    partsSent: integer('parts_sent').notNull().default(0),
    /**
     * SMS parts whose post reached the gateway, written as the post leaves (before its answer): a worker
     * claiming the row after its last worker died sees the part it may have sent, and does not post it
     * again (docs/decisions/0109). Back to `parts_sent` when a send ends.
     */
    partsPosted: integer('parts_posted').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    error: text('error'),
    gatewayId: text('gateway_id'),
    report: text('report'),
    reportedAt: timestamp('reported_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    /**
     * The message, person and channel once; byte-wise (text_pattern_ops) so that it also serves the prefix
     * search by event (`outbreak:<alert>|…`: an extension officer's week counts an alert's messages).
     */
    uniqueIndex('deliveries_key_idx').on(t.key.op('text_pattern_ops')),
    /** The claim's order (next_at, id): a claim reads its batch off the index, never sorts the whole outbox. */
    index('deliveries_due_idx').on(t.nextAt, t.id).where(sql`state in ('waiting', 'sending')`),
    // Partial, as the due index: a claim and a send's end, two writes per message, add an entry to
    // these only for the rows they list (the administrators' failed list, a delivery report's id).
    index('deliveries_failed_idx').on(t.id).where(sql`state = 'failed'`),
    index('deliveries_gateway_idx').on(t.gatewayId).where(sql`gateway_id is not null`),
    check('deliveries_state_check', sql`${t.state} in ('waiting', 'sending', 'sent', 'failed', 'skipped')`),
    check(
      'deliveries_to_check',
      sql`${t.userId} is not null or (${t.address} is not null and ${t.language} is not null)`,
    ),
  ],
);

/**
 * Bulk requests on their way to the gateway (docs/decisions/0139): the outbox rows of one request, written
 * as it leaves and deleted with those rows' ends. A worker that claims one of the rows again after its
 * worker died finds it here and counts the row's one part as posted (`parts_posted`): one insert a
 * request instead of an update a row.
 */
export const deliveryPosts = pgTable(
  'delivery_posts',
  {
    /** The request's first row and that row's attempt: its ends name the request by them. */
    firstId: integer('first_id').notNull(),
    attempts: integer('attempts').notNull(),
    deliveryIds: integer('delivery_ids').array().notNull(),
    /** The claim's lease when the request left: until then its rows are its worker's, the mark in use. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.firstId, t.attempts] }),
    index('delivery_posts_ids_idx').using('gin', t.deliveryIds),
  ],
);
