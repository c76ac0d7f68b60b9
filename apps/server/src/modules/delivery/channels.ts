import type { DeliveryChannel, Language } from '@kutu/contract';
import type { Mailer } from '../../adapters/mailer.ts';
import { type Sms, SmsUnanswered } from '../../adapters/sms.ts';
import type { VoiceCalls } from '../../adapters/voice-calls.ts';
import { render, restoreMessage, storeMessage, t, type StoredMessage } from '../../i18n/i18n.ts';
import type { MessageKind, Tell } from '../../lib/deliverer.ts';
import type { Db } from '../../db/client.ts';
import type { StoredAttachment } from '../../db/schema/delivery.ts';
import { type ClaimedDelivery, createDeliveryRepo, type Recipient } from './delivery.repo.ts';
import { smsAllowed } from './sms-allowed.ts';
import { smsParts } from '../../lib/sms-text.ts';

/**
 * One way out of the app (docs/decisions/0050): everything the outbox needs to know of a channel, in one
 * record. `write()` asks `compose` and `column`, the sender `allowed`, `column` and `send`, and the
 * administrators' failed list `column`; none of them names a channel.
 */
export interface Channel {
  /** What this channel keeps of a message (null: nothing for it), stored in the event's transaction. */
  compose(
    tell: Tell,
  ): { body: StoredMessage; subject?: StoredMessage; link?: string | null; attachments?: StoredAttachment[] } | null;
  /**
   * The account's field that is the person's address on this channel (`addressOn`), as the account has it
   * now; none: no row, or the row is skipped. A field, not a function: a fan-out writes its rows in SQL.
   */
  column: 'phone' | 'email';
  /**
   * A choice the account must have made for a row to be written at all (`voice_warnings`: a call with a
   * rust warning); none: every person with an address gets one. `allowed` still reads it at send time.
   */
  chosen?: 'voice_warnings';
  /** Whether the person may get a message of this kind now: `true`, or why not (the row is skipped). */
  allowed(person: Recipient, kind: MessageKind): true | string;
  /**
   * Sends one row, its text already in the person's language; returns the gateway's id if it gives one,
   * and a note when it is counted as sent without the gateway's word (`unconfirmed`).
   * Throws what the channel threw: a retry later, or failed for good if the error says `permanent`.
   */
  send(
    row: ClaimedDelivery,
    to: { address: string; language: Language },
    text: string,
  ): Promise<{ gatewayId?: string | null; unconfirmed?: string }>;
  /**
   * One text to many people in one request (docs/decisions/0130): the sender gathers the claimed rows
   * whose text is the same, none of it sent yet, `size` at most. None: each row goes by `send`.
   */
  bulk?: {
    size: number;
    /** Whether this text may go in a batch (an SMS of one part). */
    fits(text: string): boolean;
    /**
     * Sends `text` to each row's address; answers each row in order, as `send` would have: sent, with its
     * own id (or `unconfirmed`), or its own error. Throws what the channel threw for the whole request.
     */
    send(rows: { row: ClaimedDelivery; address: string }[], text: string): Promise<BulkEnd[]>;
  };
  /**
   * The text as `send` puts it on the wire, in `language` (the administrators' failed list shows it):
   * an SMS's numbered parts, an email with its link. None: the rendered text as it is.
   */
  asSent?(row: Pick<ClaimedDelivery, 'link'>, language: Language, text: string): string;
}

/** One row's end in a bulk send: what `send` returns, or what it threw. */
export type BulkEnd = { gatewayId?: string | null; unconfirmed?: string; error?: undefined } | { error: Error };

/** Whether a row of `channel` is written for `person` at all: their address, and the choice it needs. */
export const writesFor = (
  channel: Pick<Channel, 'column' | 'chosen'>,
  person: Pick<Recipient, 'phone' | 'email' | 'voiceWarnings'>,
) => Boolean(addressOn(channel, person)) && (channel.chosen !== 'voice_warnings' || person.voiceWarnings);

/** The person's address on `channel`, or null when the account has none. */
export const addressOn = (channel: Pick<Channel, 'column'>, person: Pick<Recipient, 'phone' | 'email'>) =>
  person[channel.column];

/** An email's text as sent: the message, then the link to it in Kutu. */
const emailText = (row: Pick<ClaimedDelivery, 'link'>, language: Language, text: string) =>
  row.link ? `${text}\n\n${t(language, 'consultations.seeInKutu', { link: row.link })}` : text;

/** A row whose channel has no record here: failed for good, never sent some other way. */
export class UnknownChannelError extends Error {
  readonly permanent = true;
  constructor(channel: string) {
    super(`Unknown channel "${channel}": it has no record in modules/delivery/channels.ts`);
  }
}

/**
 * The channel table: one record per name in the contract's `deliveryChannels` (the type makes a
 * missing one a type error), the one place a channel is registered. services.ts hands it to the delivery
 * service, which sends through nothing else. A new channel adds its name there, its adapter on `deps`
 * and its record here (docs/phones.md, "To add a channel").
 */
export function createChannels(deps: {
  db: Db;
  sms: Sms;
  mailer: Mailer;
  calls: VoiceCalls;
}): Record<DeliveryChannel, Channel> {
  const repo = createDeliveryRepo(deps.db);
  return {
    sms: {
      compose: (tell) => (tell.sms ? { body: storeMessage(tell.sms) } : null),
      column: 'phone',
      allowed: (person, kind) => {
        if (smsAllowed(person, kind)) return true;
        return person.smsStoppedAt ? 'The number sent STOP' : 'SMS turned off by the person';
      },
      async send(row, to, text) {
        const parts = smsParts(text);
        let first = row.gatewayId;
        const unanswered: number[] = [];
        const orphaned: number[] = [];
        // A retry after a later part failed sends the parts the gateway did not take yet, not all again.
        for (let i = row.partsSent; i < parts.length; i++) {
          // Its post reached the gateway and the worker died before the answer (kill -9): the gateway may
          // have sent it, so it is not posted again (docs/decisions/0109).
          if (i < row.partsPosted) orphaned.push(i + 1);
          else {
            let marked: Promise<void> = Promise.resolve();
            const onPosted = () => {
              marked = repo.partsPosted(row.id, row.attempts, i + 1);
            };
            try {
              const receipt = await deps.sms.send(to.address, parts[i]!, { key: `kutu-${row.id}-${i + 1}`, onPosted });
              first ??= receipt.gatewayId;
            } catch (err) {
              // The gateway got the part and did not answer: it may have sent it, so it is never posted again
              // (docs/decisions/0082); the row says so.
              if (!(err instanceof SmsUnanswered)) throw err;
              unanswered.push(i + 1);
            } finally {
              // Recorded before the send's end, which puts it back to the parts taken (a refusal: not sent).
              await marked;
            }
          }
          if (i < parts.length - 1) await repo.partsSent(row.id, row.attempts, i + 1, first);
        }
        const which = (list: number[]) =>
          parts.length > 1 ? `Part ${list.join(', ')} of ${parts.length}` : 'The message';
        const notes = [
          ...(unanswered.length ? [`${which(unanswered)}: the gateway got it but did not answer in time`] : []),
          ...(orphaned.length ? [`${which(orphaned)}: the gateway got it and the sending worker stopped`] : []),
        ];
        if (notes.length === 0) return { gatewayId: first };
        return { gatewayId: first, unconfirmed: `${notes.join('; ')}; counted as sent, not posted again` };
      },
      asSent: (_row, _language, text) => smsParts(text).join('\n'),
      ...(deps.sms.sendBulk && { bulk: smsBulk(deps.sms, deps.sms.sendBulk, repo) }),
    },
    email: {
      compose: (tell) =>
        tell.email
          ? {
              body: storeMessage(tell.email.text),
              subject: storeMessage(tell.email.subject),
              link: tell.email.link ?? null,
              // Kept as written, so that a retry sends the same files.
              ...(tell.email.attachments?.length && {
                attachments: tell.email.attachments.map((a) => ({
                  filename: a.filename,
                  contentType: a.contentType,
                  base64: a.content.toString('base64'),
                })),
              }),
            }
          : null,
      column: 'email',
      allowed: () => true,
      async send(row, to, text) {
        await deps.mailer.send({
          to: to.address,
          subject: row.subject ? render(to.language, restoreMessage(row.subject)) : 'Kutu',
          text: emailText(row, to.language, text),
          attachments: row.attachments?.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: Buffer.from(a.base64, 'base64'),
          })),
        });
        return {};
      },
      asSent: emailText,
    },
    /**
     * A call that says a rust advisory (docs/decisions/0123): dialled through Africa's Talking, its session
     * id kept as the row's gateway id; when the farmer answers, the voice module asks `voiceCall()` for
     * what to say. Only to a person who chose it, and stopped as an alert SMS is (STOP, SMS alerts off).
     */
    voice: {
      compose: (tell) => (tell.voice ? { body: storeMessage(tell.voice) } : null),
      column: 'phone',
      chosen: 'voice_warnings',
      allowed: (person, kind) => {
        if (!person.voiceWarnings) return 'Calls with rust warnings not chosen';
        if (smsAllowed(person, kind)) return true;
        return person.smsStoppedAt ? 'The number sent STOP' : 'Alerts turned off by the person';
      },
      async send(_row, to) {
        try {
          const { sessionId } = await deps.calls.dial(to.address);
          return { gatewayId: sessionId };
        } catch (err) {
          // The request reached the gateway and its answer did not come in time: it may be ringing, so the
          // farmer is not called again (as an SMS the gateway did not answer, docs/decisions/0082).
          if (!(err instanceof Error && err.name === 'TimeoutError')) throw err;
          return { unconfirmed: 'The voice gateway did not answer the call request in time; counted as placed' };
        }
      },
    },
  };
}

/**
 * The SMS channel's bulk send (docs/decisions/0130): an SMS of one part to many numbers in one request.
 * As the request leaves, every row in it is marked posted (one statement): a worker that claims them after
 * this one died counts them as sent and posts none again; a request the gateway got and did not answer in
 * time is counted as sent for every row, as a single part is (docs/decisions/0082).
 */
function smsBulk(sms: Sms, sendBulk: NonNullable<Sms['sendBulk']>, repo: ReturnType<typeof createDeliveryRepo>) {
  return {
    size: sms.bulkSize ?? 1,
    fits: (text: string) => smsParts(text).length === 1,
    async send(rows: { row: ClaimedDelivery; address: string }[], text: string): Promise<BulkEnd[]> {
      let marked: Promise<void> = Promise.resolve();
      const onPosted = () => {
        marked = repo.postedMany(rows.map(({ row }) => row));
      };
      try {
        const results = await sendBulk.call(
          sms,
          rows.map((r) => r.address),
          text,
          { onPosted },
        );
        return results.map((r) => (r.error ? { error: r.error } : { gatewayId: r.gatewayId }));
      } catch (err) {
        if (!(err instanceof SmsUnanswered)) throw err;
        const unconfirmed =
          'The message: the gateway got it but did not answer in time; counted as sent, not posted again';
        return rows.map(() => ({ gatewayId: null, unconfirmed }));
      } finally {
        await marked;
      }
    },
  };
}
