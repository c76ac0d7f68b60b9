import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { deliveries, users } from '../../db/schema/index.ts';
import { claimSql, unusedMarksSql } from './claim-sql.ts';
import {
  insertNoticesForEachSql,
  insertNoticesSql,
  type NewNotification,
} from '../notifications/notifications.service.ts';

export type DeliveryRow = typeof deliveries.$inferSelect;
/** A row's message: who it goes to, by which channel, and what it says (as stored, in no language yet). */
type MessageColumns =
  | 'key'
  | 'userId'
  | 'address'
  | 'language'
  | 'channel'
  | 'kind'
  | 'body'
  | 'subject'
  | 'link'
  | 'attachments';
/** An outbox row as write() makes it: the columns add() writes. */
export type NewDelivery = Pick<typeof deliveries.$inferInsert, MessageColumns | 'nextAt' | 'createdAt'>;
/** An outbox row as the sender claimed it: the columns a claim returns. */
export type ClaimedDelivery = Pick<
  DeliveryRow,
  | 'id'
  | Exclude<MessageColumns, 'key'>
  | 'attempts'
  | 'partsSent'
  | 'partsPosted'
  | 'gatewayId'
  | 'nextAt'
  | 'leaseUntil'
>;
type Runner = Db | Tx;

/**
 * One message of a fan-out, as stored for every person who gets it: the notification's text rendered in
 * each language, and each channel's part with the account's column that is its address.
 */
export interface FanOutVariant {
  variant: string;
  key: string;
  kind: string;
  app: { type: string; message: Record<string, string>; text: unknown; data: Record<string, unknown> } | null;
  parts: {
    channel: string;
    column: 'phone' | 'email';
    /** The account's choice without which no row is written (`Channel.chosen`). */
    chosen?: 'voice_warnings';
    body: unknown;
    subject?: unknown;
    link?: string | null;
  }[];
}

const rowsOf = async <T>(runner: Runner, query: SQL): Promise<T[]> =>
  ((await runner.execute(query)) as unknown as { rows: T[] }).rows;

/** Who a message goes to, read when it is sent: the address and the permissions of that moment. */
export interface Recipient {
  /** Null for a number without an account. */
  id: number | null;
  phone: string;
  email: string | null;
  language: 'en' | 'sw' | 'lg';
  smsAlerts: boolean;
  smsStoppedAt: Date | null;
  /** The person chose a call that says a rust advisory (docs/decisions/0123). */
  voiceWarnings: boolean;
}

export function createDeliveryRepo(db: Db) {
  return {
    /** Stores the in-app notifications (the notifications module's insert); an already stored key is skipped. Returns the new ones. */
    addNotifications: (tx: Runner, rows: NewNotification[]) =>
      rows.length === 0 ? Promise.resolve([]) : rowsOf<{ id: number; userId: number }>(tx, insertNoticesSql(rows)),

    /** Writes outbox rows; a key already written is left as it is (the same message, once). One JSON parameter, as above. */
    async add(tx: Runner, rows: NewDelivery[]): Promise<number> {
      if (rows.length === 0) return 0;
      const added = await rowsOf<{ id: number }>(
        tx,
        sql`insert into deliveries (key, user_id, address, language, channel, kind, body, subject, link, attachments,
              next_at, created_at)
            select key, "userId", address, language, channel, kind, body, subject, link, attachments, "nextAt", "createdAt"
            from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(key text, "userId" int, address text,
              language text, channel text, kind text, body jsonb, subject jsonb, link text, attachments jsonb,
              "nextAt" timestamptz, "createdAt" timestamptz)
            on conflict (key) do nothing returning id`,
      );
      return added.length;
    },

    /**
     * Writes the notifications and outbox rows of every person `people` selects (`id`, and `variant`
     * naming one of `variants`) in one statement, read and written inside PostgreSQL: an alert to 100,000
     * farmers sent each id to this process and back as JSON, and that was most of its time. Keys and the
     * skipping of a key already written are write()'s. Returns the new notifications, and how many people
     * the query selected and the last id (the caller's cursor).
     */
    async addForEach(tx: Runner, people: SQL, variants: FanOutVariant[], now: Date) {
      const at = now.toISOString();
      const apps = variants.flatMap((v) => (v.app ? [{ variant: v.variant, key: v.key, ...v.app }] : []));
      const parts = variants.flatMap((v) =>
        v.parts.map((p) => ({ variant: v.variant, key: v.key, kind: v.kind, ...p })),
      );
      const [row] = await rowsOf<{
        told: number;
        last: number | null;
        created: { id: number; userId: number }[] | null;
      }>(
        tx,
        sql`with people as materialized (${people}),
            told as (select p.id, p.variant, u.language, u.phone, u.email, u.voice_warnings
              from people p join users u on u.id = p.id),
            noticed as (${insertNoticesForEachSql(sql`told`, apps, at)}),
            queued as (insert into deliveries (key, user_id, channel, kind, body, subject, link, next_at, created_at)
              select c.key || '|' || t.id || '|' || c.channel, t.id, c.channel, c.kind, c.body, c.subject, c.link,
                ${at}::timestamptz, ${at}::timestamptz
              from told t join jsonb_to_recordset(${JSON.stringify(parts)}::jsonb)
                as c(variant text, key text, kind text, channel text, "column" text, chosen text, body jsonb,
                  subject jsonb, link text)
                on c.variant = t.variant
              where case c."column" when 'phone' then t.phone when 'email' then t.email end is not null
                and (c.chosen is null or (c.chosen = 'voice_warnings' and t.voice_warnings))
              on conflict (key) do nothing)
            select (select count(*) from people)::int as told, (select max(id) from people) as last,
              (select json_agg(json_build_object('id', id, 'userId', user_id)) from noticed) as created`,
      );
      return { told: row?.told ?? 0, last: row?.last ?? null, created: row?.created ?? [] };
    },

    /**
     * Claims up to `limit` rows due at `now` (waiting, or claimed by a worker whose lease ran out) for
     * `leaseMs`: rows locked by another worker's claim are skipped, so no two workers hold one row.
     */
    claim: (now: Date, limit: number, leaseMs: number) =>
      rowsOf<ClaimedDelivery>(db, claimSql(now, limit, leaseMs, sql.empty(), { before: unusedMarksSql(now) })),

    /**
     * Claims, as `claim` does, up to `limit` more due rows of `channel` with this very `body` (an alert's
     * text, stored once for all its recipients) and no part sent yet: one bulk request's recipients. The
     * search starts just `after` a row of that text in the claim's order (the last one claimed): the due
     * index is read from there, not past every row of the texts before it. Every row it returns holds
     * `body` itself (one object for all), not a copy read from the database.
     */
    claimSame: async (
      now: Date,
      channel: string,
      body: unknown,
      limit: number,
      leaseMs: number,
      after: { nextAt: Date; id: number },
    ): Promise<ClaimedDelivery[]> => {
      const rows = await rowsOf<Omit<ClaimedDelivery, 'body'>>(
        db,
        claimSql(
          now,
          limit,
          leaseMs,
          sql`and (next_at, id) > (${new Date(after.nextAt).toISOString()}::timestamptz, ${after.id}::int)
                and channel = ${channel} and body = ${JSON.stringify(body)}::jsonb
                and parts_sent = 0 and parts_posted = 0`,
          { withBody: false },
        ),
      );
      return rows.map((row) => Object.assign(row, { body }) as ClaimedDelivery);
    },

    /**
     * Records, as one bulk request reaches the gateway and before its answer, that each of its rows' one
     * part may have been sent: one row of `delivery_posts` for the request (docs/decisions/0139), which a
     * claim of any of them after this worker died reads as `parts_posted`, and their ends delete.
     */
    async postedMany(claims: Pick<ClaimedDelivery, 'id' | 'attempts' | 'leaseUntil'>[]): Promise<void> {
      if (claims.length === 0) return;
      const [first] = claims as [Pick<ClaimedDelivery, 'id' | 'attempts' | 'leaseUntil'>];
      await db.execute(
        sql`insert into delivery_posts (first_id, attempts, delivery_ids, lease_until)
            select ${first.id}, ${first.attempts}, array_agg(r.id::int),
              ${new Date(first.leaseUntil ?? 0).toISOString()}::timestamptz
            from jsonb_array_elements_text(${JSON.stringify(claims.map((c) => c.id))}::jsonb) as r(id)
            on conflict do nothing`,
      );
    },

    /**
     * `finish` for many rows in one statement (a bulk request's recipients, each with its own end); returns
     * how many were recorded (a row whose claim was lost is not).
     */
    async finishMany(
      ends: ({ id: number; attempts: number } & Partial<
        Pick<DeliveryRow, 'state' | 'nextAt' | 'error' | 'gatewayId' | 'sentAt'>
      >)[],
    ): Promise<number> {
      if (ends.length === 0) return 0;
      // With the ends, the request's mark goes (a retried row is posted afresh): every row it named has an
      // end here, or was claimed again by a worker that read the mark as it claimed. A request is named by
      // its first row's claim, as `postedMany` wrote it.
      const [row] = await rowsOf<{ recorded: number }>(
        db,
        sql`with ended as (
              update deliveries d set state = r.state, error = r.error,
                next_at = coalesce(r."nextAt", d.next_at), gateway_id = coalesce(r."gatewayId", d.gateway_id),
                sent_at = coalesce(r."sentAt", d.sent_at), lease_until = null, parts_posted = d.parts_sent
              from jsonb_to_recordset(${JSON.stringify(ends)}::jsonb) as r(id int, attempts int, state text, error text,
                "nextAt" timestamptz, "gatewayId" text, "sentAt" timestamptz)
              where d.id = r.id and d.attempts = r.attempts and d.state = 'sending'
              returning d.id),
            unmarked as (delete from delivery_posts
              where first_id = ${ends[0]!.id} and attempts = ${ends[0]!.attempts})
            select count(*)::int as recorded from ended`,
      );
      return row?.recorded ?? 0;
    },

    /** `release` for many rows in one statement. */
    async releaseMany(claims: { id: number; attempts: number }[]): Promise<void> {
      if (claims.length === 0) return;
      await db.execute(
        sql`update deliveries d set state = 'waiting', attempts = r.attempts - 1, lease_until = null
            from jsonb_to_recordset(${JSON.stringify(claims)}::jsonb) as r(id int, attempts int)
            where d.id = r.id and d.attempts = r.attempts and d.state = 'sending'`,
      );
    },

    async recipients(ids: number[], runner: Runner = db): Promise<Map<number, Recipient>> {
      if (ids.length === 0) return new Map();
      const rows = await runner
        .select({
          id: users.id,
          phone: users.phone,
          email: users.email,
          language: users.language,
          smsAlerts: users.smsAlerts,
          smsStoppedAt: users.smsStoppedAt,
          voiceWarnings: users.voiceWarnings,
        })
        .from(users)
        // One JSON parameter: a claim of 16,000 rows made 16,000 bound parameters, as slow to plan as to read.
        .where(inArray(users.id, sql`(select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::int)`));
      return new Map(rows.map((r) => [r.id, r]));
    },

    /** A number without an account as a recipient: its SMS alone, in the language its row keeps. */
    numberOnly: (phone: string, language: Recipient['language']): Recipient => ({
      id: null,
      phone,
      email: null,
      language,
      smsAlerts: true,
      smsStoppedAt: null,
      voiceWarnings: false,
    }),

    /** The end of one claimed send, recorded only while this worker's claim holds (`attempts`). */
    async finish(
      id: number,
      attempts: number,
      set: Partial<Pick<DeliveryRow, 'state' | 'nextAt' | 'error' | 'gatewayId' | 'sentAt'>>,
    ): Promise<boolean> {
      const rows = await db
        .update(deliveries)
        .set({ ...set, leaseUntil: null, partsPosted: sql`${deliveries.partsSent}` })
        .where(and(eq(deliveries.id, id), eq(deliveries.state, 'sending'), eq(deliveries.attempts, attempts)))
        .returning({ id: deliveries.id });
      return rows.length > 0;
    },

    /**
     * Records that the gateway took the first `partsSent` parts of a long SMS (the first part's id is the
     * message's), while this worker's claim holds: a retry after a later part failed starts after them.
     */
    async partsSent(id: number, attempts: number, partsSent: number, gatewayId: string | null): Promise<void> {
      await db
        .update(deliveries)
        .set({ partsSent, gatewayId })
        .where(and(eq(deliveries.id, id), eq(deliveries.state, 'sending'), eq(deliveries.attempts, attempts)));
    },

    /**
     * Records, as a part's post reaches the gateway and before its answer, that the first `parts` parts may
     * have been sent: a worker that claims the row after this one died does not post them again (0109).
     */
    async partsPosted(id: number, attempts: number, parts: number): Promise<void> {
      await db
        .update(deliveries)
        .set({ partsPosted: sql`greatest(${deliveries.partsPosted}, ${parts})` })
        .where(and(eq(deliveries.id, id), eq(deliveries.state, 'sending'), eq(deliveries.attempts, attempts)));
    },

    /** Gives back a claimed row not sent (its claim is too old to start a send): waiting again, the try not counted. */
    async release(id: number, attempts: number): Promise<void> {
      await db
        .update(deliveries)
        .set({ state: 'waiting', attempts: attempts - 1, leaseUntil: null })
        .where(and(eq(deliveries.id, id), eq(deliveries.state, 'sending'), eq(deliveries.attempts, attempts)));
    },

    /** Failed rows, newest first, with whom they were for (a number without an account: its own address). */
    async failed(window: { limit: number; offset: number }) {
      const [rows, [total]] = await Promise.all([
        db
          .select({
            id: deliveries.id,
            channel: deliveries.channel,
            kind: deliveries.kind,
            body: deliveries.body,
            link: deliveries.link,
            attempts: deliveries.attempts,
            error: deliveries.error,
            report: deliveries.report,
            createdAt: deliveries.createdAt,
            userId: deliveries.userId,
            username: users.username,
            phone: sql<string>`coalesce(${users.phone}, ${deliveries.address})`,
            email: users.email,
            language: sql<Recipient['language']>`coalesce(${users.language}, ${deliveries.language})`,
          })
          .from(deliveries)
          .leftJoin(users, eq(users.id, deliveries.userId))
          .where(eq(deliveries.state, 'failed'))
          .orderBy(desc(deliveries.id))
          .limit(window.limit)
          .offset(window.offset),
        db.select({ n: count() }).from(deliveries).where(eq(deliveries.state, 'failed')),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** A failed row goes back to waiting, with its attempts counted afresh; false when it is not failed. */
    async resend(id: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(deliveries)
        // The whole message again, every part: the address may have changed since.
        .set({
          state: 'waiting',
          attempts: 0,
          partsSent: 0,
          partsPosted: 0,
          gatewayId: null,
          nextAt: now,
          error: null,
          report: null,
          reportedAt: null,
        })
        .where(and(eq(deliveries.id, id), eq(deliveries.state, 'failed')))
        .returning({ id: deliveries.id });
      return rows.length > 0;
    },

    /** Records a delivery report; a report saying it never arrived fails the row (visible to administrators). */
    async report(gatewayId: string, report: { status: string; failed: boolean; reason: string | null }, now: Date) {
      const rows = await db
        .update(deliveries)
        .set({
          report: report.status,
          reportedAt: now,
          ...(report.failed ? { state: 'failed' as const, error: report.reason ?? report.status } : {}),
        })
        .where(eq(deliveries.gatewayId, gatewayId))
        .returning({ id: deliveries.id });
      return rows.length;
    },

    /** The call placed for a voice row, by the gateway's session id: what it says, in whose language. */
    async voiceCall(sessionId: string) {
      const [row] = await db
        .select({ userId: users.id, language: users.language, body: deliveries.body })
        .from(deliveries)
        .innerJoin(users, eq(users.id, deliveries.userId))
        .where(and(eq(deliveries.gatewayId, sessionId), eq(deliveries.channel, 'voice')))
        .limit(1);
      return row;
    },

    /** Rows per channel and state (metrics at scrape time). */
    counts: () =>
      rowsOf<{ channel: string; state: string; n: number }>(
        db,
        sql`select channel, state, count(*)::int as n from deliveries group by channel, state`,
      ),
  };
}
export type DeliveryRepo = ReturnType<typeof createDeliveryRepo>;
