import type { Language, NotificationType } from '@kutu/contract';
import type { SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import type { Message } from '../i18n/i18n.ts';
import type { BulkSmsKey, SmsMessage } from '../i18n/sms-texts.ts';
import type { MailAttachment } from '../adapters/mailer.ts';

/**
 * What a message is, for the SMS permission (modules/delivery/sms-allowed.ts):
 * - `alert`: an outbreak alert; `reminder`: a follow-up reminder. Both stop when the person turns SMS
 *   alerts off.
 * - `service`: the answer to something the person did (a verdict, a booking, their expert account).
 * - `requested`: what the person asked for at that moment (a plant clinic visit's result): sent even
 *   after STOP, as a sign-in code is.
 * Every kind but `requested` stops when the person's number sent STOP (docs/decisions/0051).
 */
export type MessageKind = 'alert' | 'reminder' | 'service' | 'requested';

/**
 * A number without an account (the reply to its inbound SMS): only an SMS reaches it, in `language`, and
 * it is kept, retried and listed when it fails as a person's is.
 */
export interface NumberOnly {
  phone: string;
  language: Language;
}

/**
 * What to tell one person (docs/decisions/0050): `to` is their user id, or a number without an account.
 * `key` names the event (e.g. `booking:12:approved`): the same key told twice to the same person is
 * stored and sent once.
 */
export interface Tell {
  to: number | NumberOnly;
  key: string;
  kind: MessageKind;
  /** The in-app notification: the record, stored in the transaction. */
  app?: { type: NotificationType; text: Message; data?: Record<string, unknown> };
  /** The SMS (one of i18n/sms-texts.ts's keys and its values), rendered in the person's language when sent; split if long. */
  sms?: SmsMessage;
  /**
   * An email, when the person has an address; `link` ends it ("See it in Kutu: …"); `attachments`: files it
   * carries (kept in the outbox row, so keep them few and small: the weekly bulletin's CSV and PDF).
   */
  email?: { subject: Message; text: Message; link?: string; attachments?: MailAttachment[] };
  /**
   * A phone call that says this text (a farmer's rust advisory, docs/decisions/0123), only to a person who
   * chose such calls (`users.voice_warnings`); spoken in their language when the call is answered.
   */
  voice?: Message;
}
export type TellFn = (messages: Tell | Tell[]) => Promise<void>;

/** What a fan-out (`TellEachFn`) tells each person: a `Tell` without its person, and only a bulk text by SMS. */
export type BulkTell = Omit<Tell, 'to' | 'sms'> & { sms?: SmsMessage<BulkSmsKey> };

/**
 * Tells every person a query selects (an alert's recipients): `people` is SQL selecting `id` (the user)
 * and `variant` (which of `says` they get), in the caller's order and limit. The messages are written in
 * the database itself, in one statement. Returns how many people it selected and the last id. Its SMS is
 * one of the bulk texts (`bulkSmsKeys`), each held to one GSM-7 message in every language.
 */
export type TellEachFn = (
  people: SQL,
  says: Record<string, BulkTell>,
) => Promise<{ told: number; last: number | null }>;

/**
 * The one way to tell a person (`deps.delivery`; modules/delivery implements it): messages are written
 * to the outbox in the caller's transaction and sent by the delivery worker.
 */
export interface Deliverer {
  /** Runs `fn` in a transaction whose `tell` writes messages; they go out if and only if it commits. */
  transaction<T>(fn: (tx: Tx, tell: TellFn, tellEach: TellEachFn) => Promise<T>): Promise<T>;
  /** Tells now, in a transaction of its own (the event is already committed). */
  tell(messages: Tell | Tell[]): Promise<void>;
}
