import { timingSafeEqual } from 'node:crypto';
import type { DeliveryReport, FailedMessagePage, PageQuery } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { type Message, render, restoreMessage, type StoredMessage, storeMessage } from '../../i18n/i18n.ts';
import type { Deliverer, Tell, TellEachFn, TellFn } from '../../lib/deliverer.ts';
import { notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { type DeliveryChannel, type Language, languages } from '@kutu/contract';
import { addressOn, type Channel, writesFor } from './channels.ts';
import { failureKind } from './failure-kind.ts';

/** Outbox rows as other modules' queries count them (an alert's SMS, by key). */
export { deliveryFacts } from './facts.repo.ts';
import { createDeliveryRepo, type FanOutVariant, type NewDelivery } from './delivery.repo.ts';
import { createSender, type SenderOptions } from './delivery.sender.ts';

export interface DeliveryOptions extends SenderOptions {
  /** Tests: send what a transaction wrote before it returns (the product sends in the worker loop). */
  sendAtOnce?: boolean;
}

/** Africa's Talking delivery report statuses meaning the message did not and will not arrive. */
const UNDELIVERED = new Set(['Rejected', 'Failed']);

/** The channel table the delivery service sends through, registered in one place (channels.ts). */
export { createChannels } from './channels.ts';

/**
 * One way to tell a person: in-app, SMS and email, through the outbox (docs/decisions/0050), by the
 * channels of `channels` (`createChannels(deps)`, handed in by services.ts): write(), the sender and
 * failed() look a channel up there, never name it.
 */
export function createDeliveryService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'coordinator' | 'config'>,
  channels: Record<string, Channel>,
  opts: DeliveryOptions = {},
) {
  const repo = createDeliveryRepo(deps.db);
  const sender = createSender({ repo, clock: deps.clock, channels }, opts);
  const log = opts.log ?? (() => {});

  /** Writes the messages in `tx`; returns the new notifications to announce after the commit. */
  async function write(tx: Tx, messages: Tell[]) {
    if (messages.length === 0) return [];
    const now = deps.clock.now();
    const ids = messages.flatMap((m) => (typeof m.to === 'number' ? [m.to] : []));
    const people = await repo.recipients([...new Set(ids)], tx);
    const notices = [];
    const rows: NewDelivery[] = [];
    // Messages shared by many recipients (an alert's) are rendered and stored once per language, not per person.
    const rendered = new Map<object, { text: StoredMessage; by: Partial<Record<Language, string>> }>();
    const once = (text: Message, language: Language) => {
      const r = rendered.get(text) ?? { text: storeMessage(text), by: {} };
      rendered.set(text, r);
      r.by[language] ??= render(language, text);
      return { message: r.by[language], text: r.text };
    };
    for (const m of messages) {
      const userId = typeof m.to === 'number' ? m.to : null;
      // A number without an account has no notifications or email: its SMS row keeps its address.
      const person = typeof m.to === 'number' ? people.get(m.to) : repo.numberOnly(m.to.phone, m.to.language);
      if (!person) continue;
      const base = `${m.key}|${userId ?? person.phone}`;
      if (m.app && userId !== null) {
        notices.push({
          userId,
          type: m.app.type,
          ...once(m.app.text, person.language),
          data: m.app.data ?? {},
          key: base,
          createdAt: now,
        });
      }
      const to = userId === null ? { address: person.phone, language: person.language } : {};
      const row = { userId, ...to, kind: m.kind, nextAt: now, createdAt: now };
      // Callers say what to tell; each channel the person can be reached on keeps its part of it.
      for (const [name, channel] of Object.entries(channels)) {
        const part = channel.compose(m);
        if (!part || !writesFor(channel, person)) continue;
        rows.push({ ...row, key: `${base}|${name}`, channel: name as DeliveryChannel, ...part });
      }
    }
    const created = await repo.addNotifications(tx, notices);
    await repo.add(tx, rows);
    return created;
  }

  /**
   * write()'s rows for everyone `people` selects, written by the database (`TellEachFn`): each message is
   * rendered once per language and each channel's part stored once, with the column that is its address.
   */
  async function writeEach(tx: Tx, people: Parameters<TellEachFn>[0], says: Parameters<TellEachFn>[1]) {
    const variants: FanOutVariant[] = Object.entries(says).map(([variant, m]) => ({
      variant,
      key: m.key,
      kind: m.kind,
      app: m.app
        ? {
            type: m.app.type,
            message: Object.fromEntries(languages.map((l) => [l, render(l, m.app!.text)])),
            text: storeMessage(m.app.text),
            data: m.app.data ?? {},
          }
        : null,
      parts: Object.entries(channels).flatMap(([channel, record]) => {
        const part = record.compose({ ...m, to: 0 });
        // A fan-out writes its rows in SQL, without files: a message with attachments is told person by person.
        if (part?.attachments) throw new Error('A fan-out carries no attachments: tell each person');
        return part ? [{ channel, column: record.column, chosen: record.chosen, ...part }] : [];
      }),
    }));
    return repo.addForEach(tx, people, variants, deps.clock.now());
  }

  /** After a commit: live pages hear of the new notifications; the sender sends the new rows. */
  async function committed(created: { id: number; userId: number }[]) {
    for (const n of created) {
      await deps.coordinator
        .publish({ type: 'notification-created', userId: n.userId, notificationId: n.id })
        .catch((err) => log('notification not announced', err));
    }
    if (opts.sendAtOnce) await sender.sendDue().catch((err) => log('delivery pass failed', err));
    else sender.wake();
  }

  /**
   * Runs `fn` in a transaction in which `tell` writes messages: they exist if and only if the
   * transaction commits, and go out after it.
   */
  async function transaction<T>(fn: (tx: Tx, tell: TellFn, tellEach: TellEachFn) => Promise<T>): Promise<T> {
    const created: { id: number; userId: number }[] = [];
    const result = await deps.db.transaction(async (tx) =>
      fn(
        tx,
        async (messages) => {
          created.push(...(await write(tx, Array.isArray(messages) ? messages : [messages])));
        },
        async (people, says) => {
          const { told, last, created: added } = await writeEach(tx, people, says);
          created.push(...added);
          return { told, last };
        },
      ),
    );
    await committed(created);
    return result;
  }

  const secretMatches = (given: string | undefined) => {
    const expected = deps.config.smsReportSecret;
    if (!expected || !given) return false;
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  const deliverer: Deliverer = {
    transaction,
    tell: (messages) => transaction((_tx, tell) => tell(messages)),
  };
  return {
    ...deliverer,
    /** One pass of the sender (tests, benchmarks); the worker loop runs it by itself. */
    sendDue: sender.sendDue,
    /** Starts the sender in this process (where jobs run). */
    start: sender.start,
    stop: sender.stop,

    /**
     * Messages failed for good, newest first, each as it was sent: in the recipient's language (the one
     * the sender rendered it in, unless they changed it since), as its channel sends it. Why it failed
     * comes as a kind (the administrator's screen says it in their language) beside the gateway's words.
     */
    async failed(query: PageQuery): Promise<FailedMessagePage> {
      const { rows, total } = await repo.failed(pageWindow(query));
      return toPage(
        rows.map((r) => {
          const channel = Object.hasOwn(channels, r.channel) ? channels[r.channel] : undefined;
          const text = render(r.language, restoreMessage(r.body));
          return {
            id: r.id,
            channel: r.channel,
            // A number without an account is named by its number.
            to: {
              id: r.userId,
              username: r.username ?? r.phone,
              address: channel ? (addressOn(channel, r) ?? '') : '',
            },
            text: channel?.asSent ? channel.asSent(r, r.language, text) : text,
            language: r.language,
            attempts: r.attempts,
            reason_kind: failureKind(r),
            reason: r.error ?? '',
            report: r.report,
            created_at: r.createdAt.toISOString(),
          };
        }),
        total,
        query,
      );
    },

    /** Sends a failed message again (the worker picks it up at once). */
    async resend(id: number): Promise<void> {
      if (!(await repo.resend(id, deps.clock.now()))) throw notFound('errors.delivery.notFailed');
      if (opts.sendAtOnce) await sender.sendDue();
      else sender.wake();
    },

    /**
     * What a call Kutu placed says (the outbox's `voice` channel, docs/decisions/0123), by the gateway's
     * session id: the message, and the language of the person it is for; undefined for any other call.
     */
    async voiceCall(sessionId: string): Promise<{ userId: number; language: Language; text: Message } | undefined> {
      const row = await repo.voiceCall(sessionId);
      return row && { userId: row.userId, language: row.language, text: restoreMessage(row.body) };
    },

    /** Whether a delivery report carries the configured shared secret (no secret configured: never). */
    secretMatches,

    /** Records the gateway's delivery report against the message it names; returns how many rows matched. */
    report(body: DeliveryReport): Promise<number> {
      return repo.report(
        body.id,
        { status: body.status, failed: UNDELIVERED.has(body.status), reason: body.failureReason ?? null },
        deps.clock.now(),
      );
    },
  };
}
export type DeliveryService = ReturnType<typeof createDeliveryService>;
