import { type AnyColumn, and, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema/index.ts';

export type NotificationRow = typeof notifications.$inferSelect;

/** Notifications as another module's query counts them (an alert's, by key), read only; folded as the table. */
export const noticeFacts = new QueryBuilder()
  .select({ key: notifications.key, data: notifications.data })
  .from(notifications)
  .as('notice_facts');

/**
 * The SQL condition "`userId` has an unread notification of `type`", for another module's query that
 * picks whom to tell (a moderation notice waits unread at most once per expert): one lookup inside it.
 */
export const hasUnreadSql = (type: string, userId: AnyColumn | SQL): SQL =>
  sql`exists (select 1 from ${notifications} where ${notifications.userId} = ${userId} and ${notifications.type} = ${type} and ${notifications.readAt} is null)`;

/** An in-app notification as the outbox writes it (delivery's write()). */
export type NewNotification = Pick<
  typeof notifications.$inferInsert,
  'userId' | 'type' | 'message' | 'text' | 'data' | 'key' | 'createdAt'
>;

/**
 * Inserts in-app notifications for the outbox (delivery's write(), in the message's transaction): the rows
 * travel as one JSON parameter (500 rows as bound values spent more time in the query builder than in
 * PostgreSQL); an already stored key is skipped. Returns `id` and `"userId"` of the new ones.
 */
export const insertNoticesSql = (rows: NewNotification[]): SQL =>
  sql`insert into ${notifications} (user_id, type, message, text, data, key, created_at)
      select "userId", type, message, "text", coalesce(data, '{}'), key, "createdAt"
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r("userId" int, type text,
        message text, "text" jsonb, data jsonb, key text, "createdAt" timestamptz)
      on conflict (key) do nothing returning id, user_id as "userId"`;

/**
 * The in-app notifications of a fan-out, as a data-modifying CTE's body for the outbox's one statement:
 * for each person of `told` (a CTE with `id`, `variant`, `language`), the notice of their variant among
 * `notices` (`variant`, `key`, `type`, `message` by language, `text`, `data`), keyed `key|id`; a stored key
 * is skipped. Returns `id` and `user_id` of the new ones.
 */
export const insertNoticesForEachSql = (told: SQL, notices: unknown[], at: string): SQL =>
  sql`insert into ${notifications} (user_id, type, message, text, data, key, created_at)
      select t.id, a.type, a.message ->> t.language, a.text, a.data, a.key || '|' || t.id, ${at}::timestamptz
      from ${told} t join jsonb_to_recordset(${JSON.stringify(notices)}::jsonb)
        as a(variant text, key text, type text, message jsonb, text jsonb, data jsonb) on a.variant = t.variant
      on conflict (key) do nothing returning id, user_id`;

export function createNotificationsRepo(db: Db) {
  const ofUser = (userId: number, unreadOnly = false): SQL =>
    unreadOnly
      ? (and(eq(notifications.userId, userId), isNull(notifications.readAt)) as SQL)
      : eq(notifications.userId, userId);

  return {
    async insert(row: {
      userId: number;
      type: string;
      message: string;
      text: NotificationRow['text'];
      data: Record<string, unknown>;
      createdAt: Date;
    }) {
      const [created] = await db.insert(notifications).values(row).returning();
      return created;
    },

    /** Newest first; ties (same instant) broken by id so pages never overlap. */
    async listForUser(userId: number, opts: { limit: number; offset: number; unreadOnly: boolean }) {
      return db
        .select()
        .from(notifications)
        .where(ofUser(userId, opts.unreadOnly))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(opts.limit)
        .offset(opts.offset);
    },

    async findForUser(userId: number, id: number): Promise<NotificationRow | undefined> {
      const [row] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
      return row;
    },

    async countForUser(userId: number, unreadOnly = false): Promise<number> {
      const [row] = await db.select({ n: count() }).from(notifications).where(ofUser(userId, unreadOnly));
      return row?.n ?? 0;
    },

    /** Marks one of the user's notifications read (keeps the first read time); undefined if not theirs. */
    async markRead(userId: number, id: number, now: Date): Promise<NotificationRow | undefined> {
      const [unread] = await db
        .update(notifications)
        .set({ readAt: now })
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
        .returning();
      if (unread) return unread;
      const [already] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
      return already;
    },

    /** Writes anew the user's notifications of a type whose data contains `about` (their read state kept). */
    async restateAbout(
      userId: number,
      type: string,
      about: Record<string, unknown>,
      values: Pick<NotificationRow, 'message' | 'text' | 'data'>,
    ): Promise<number[]> {
      const updated = await db
        .update(notifications)
        .set(values)
        .where(
          and(
            ofUser(userId),
            eq(notifications.type, type),
            sql`${notifications.data} @> ${JSON.stringify(about)}::jsonb`,
          ),
        )
        .returning({ id: notifications.id });
      return updated.map((r) => r.id);
    },

    /** Marks read the user's unread notifications of a type whose data contains `about`. */
    async markReadAbout(userId: number, type: string, about: Record<string, unknown>, now: Date): Promise<number> {
      const updated = await db
        .update(notifications)
        .set({ readAt: now })
        .where(
          and(
            ofUser(userId, true),
            eq(notifications.type, type),
            sql`${notifications.data} @> ${JSON.stringify(about)}::jsonb`,
          ),
        )
        .returning({ id: notifications.id });
      return updated.length;
    },

    async markAllRead(userId: number, now: Date): Promise<number> {
      const updated = await db
        .update(notifications)
        .set({ readAt: now })
        .where(ofUser(userId, true))
        .returning({ id: notifications.id });
      return updated.length;
    },
  };
}
