import http from 'node:http';
import https from 'node:https';
import type { Outbox } from './outbox.ts';

/**
 * How long the SMS gateway has to answer one request unless SMS_GATEWAY_TIMEOUT_SECONDS says otherwise.
 * lib/delivery-lease.ts sizes a delivery worker's claim from it; adapters import nothing of lib.
 */
export const DEFAULT_GATEWAY_TIMEOUT_MS = 10_000;

/**
 * Recipients of one text in one bulk request unless SMS_BULK_SIZE says otherwise (docs/decisions/0130):
 * Africa's Talking publishes no cap on the `to` list; a thousand numbers is a 15 KB form and a ~150 KB
 * answer, well inside one request's timeout, and a national alert takes a thousand requests, not a million.
 */
export const DEFAULT_BULK_SIZE = 1_000;

/** What the gateway said when it took a message: its id, which its delivery reports name. */
export interface SmsReceipt {
  gatewayId: string | null;
}

/** A send the gateway refused; `permanent` when sending the same again cannot help (a bad number). */
export class SmsError extends Error {
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean) {
    super(message);
    this.permanent = permanent;
  }
}

/**
 * The gateway got the whole request but did not answer within the timeout: it may have taken the message
 * (Africa's Talking sends what it received, and takes no idempotency key), so posting it again may send it
 * twice (docs/decisions/0082). The sender counts such a part as taken and never posts it again.
 */
export class SmsUnanswered extends SmsError {
  readonly unanswered = true;
  constructor(timeoutMs: number) {
    super(`SMS gateway got the message but did not answer within ${timeoutMs / 1000} s`, false);
  }
}

/** What the gateway said of one number of a bulk send: its message id, or why it refused that number. */
export type BulkResult = { gatewayId: string | null; error?: undefined } | { error: SmsError };

export interface Sms {
  /**
   * Sends one text. `key` names this message for good: a gateway that honours the Idempotency-Key header
   * takes a second send with the same key as the first (docs/decisions/0050). `onPosted` is called once
   * the whole request has reached the gateway, before its answer: from then on it may send the message.
   */
  send(to: string, text: string, opts?: { key?: string; onPosted?: () => void }): Promise<SmsReceipt>;
  /**
   * Sends one text to many numbers in one request (Africa's Talking's `to` as a comma-separated list);
   * answers each number in `to`'s order: taken with its own message id, or refused alone. Throws as
   * `send` does for the request as a whole (not reached, refused, `SmsUnanswered`). None: one at a time.
   */
  sendBulk?(to: string[], text: string, opts?: { onPosted?: () => void }): Promise<BulkResult[]>;
  /** The most numbers `sendBulk` takes in one request (SMS_BULK_SIZE). */
  bulkSize?: number;
}

interface Logger {
  info(obj: object, msg: string): void;
}

/**
 * Africa's Talking's per-recipient status codes (its SMS API reference). 100 Processed, 101 Sent and 102
 * Queued are taken. Of the refusals, those that sending the same text to the same number again cannot
 * change are permanent: 401 RiskHold, 402 InvalidSenderId, 403 InvalidPhoneNumber, 404
 * UnsupportedNumberType, 406 UserInBlacklist. The others pass, so the sender tries again on its schedule:
 * 405 InsufficientBalance (until the account is topped up), 407 CouldNotRoute, 500 InternalServerError,
 * 501 GatewayError, 502 RejectedByGateway (the operator's gateway, often for a while).
 */
const TAKEN_CODES = new Set([100, 101, 102]);
const PERMANENT_CODES = new Set([401, 402, 403, 404, 406]);

interface AtRecipient {
  statusCode?: number;
  number?: string;
  status?: string;
  cost?: string;
  messageId?: string;
}
interface AtReply {
  SMSMessageData?: { Message?: string; Recipients?: AtRecipient[] };
}

/** One recipient of a reply: its message id, or why it was refused. */
function readRecipient(recipient: AtRecipient): BulkResult {
  const code = Number(recipient.statusCode);
  if (!TAKEN_CODES.has(code)) {
    const why = `SMS gateway refused it: ${code} ${recipient.status ?? ''}`.trim();
    return { error: new SmsError(why, PERMANENT_CODES.has(code)) };
  }
  return { gatewayId: recipient.messageId && recipient.messageId !== 'None' ? recipient.messageId : null };
}

/** Reads an Africa's Talking send reply (201): the recipient's message id, or why it was refused. */
function readReply(body: AtReply | null): SmsReceipt {
  const data = body?.SMSMessageData;
  // A 201 it cannot read (not JSON): the gateway took the message; sending it again would send it twice.
  if (!data) return { gatewayId: null };
  const recipient = data.Recipients?.[0];
  // No recipient: the number was not taken at all; the reply's Message says why ("Sent to 0/1 …").
  if (!recipient) throw new SmsError(`SMS gateway sent nothing: ${data.Message ?? 'no recipient'}`, false);
  const read = readRecipient(recipient);
  if (read.error) throw read.error;
  return read;
}

/** A number as digits alone: the gateway may write `+256…` where it was given `256…`. */
const digits = (n: string) => n.replace(/\D/g, '');

/**
 * Reads a bulk send's reply (201), one answer per number of `to`, matched by number (the reply's order is
 * not promised). A number the reply does not name was not taken: it is tried again on its own schedule.
 */
function readBulkReply(body: AtReply | null, to: string[]): BulkResult[] {
  const data = body?.SMSMessageData;
  // Not readable: the gateway took the request; sending it again would send it twice (as readReply).
  if (!data) return to.map(() => ({ gatewayId: null }));
  const named = new Map<string, AtRecipient[]>();
  for (const r of data.Recipients ?? []) {
    const key = digits(String(r.number ?? ''));
    named.set(key, [...(named.get(key) ?? []), r]);
  }
  return to.map((number) => {
    const recipient = named.get(digits(number))?.shift();
    if (recipient) return readRecipient(recipient);
    return {
      error: new SmsError(`SMS gateway sent nothing to this number: ${data.Message ?? 'not in its reply'}`, false),
    };
  });
}

/**
 * Africa's Talking's SMS API when configured (a form POST of `username`, `to`, `message` and `from`, with
 * the `apiKey` and `Accept: application/json` headers; 201 with one status per recipient), otherwise the log transport, which
 * logs the text and keeps it in the dev outbox. Production runs it only when SMS_TRANSPORT=log says so.
 */
export function createSms(opts: {
  gatewayUrl?: string;
  apiKey?: string;
  /** The Africa's Talking account's username (`sandbox` on its sandbox): every request names it. */
  username?: string;
  /** `from`: an approved sender id or short code; empty sends with the account's default. */
  senderId: string;
  /** How long one request may wait for the gateway's answer (config: SMS_GATEWAY_TIMEOUT_SECONDS; the delivery lease follows from it). */
  timeoutMs?: number;
  outbox?: Outbox;
  log?: Logger;
  /** The most numbers in one bulk request (config: SMS_BULK_SIZE). */
  bulkSize?: number;
}): Sms {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS;
  /** Posts one text to `to` (one number or many, comma-separated); the answer's status checked, its body returned. */
  async function post(to: string, text: string, headers: Record<string, string>, onPosted?: () => void) {
    const res = await postForm(
      opts.gatewayUrl!,
      { accept: 'application/json', apiKey: opts.apiKey ?? '', ...headers },
      new URLSearchParams({
        username: opts.username ?? '',
        to,
        message: text,
        ...(opts.senderId ? { from: opts.senderId } : {}),
      }).toString(),
      timeoutMs,
      onPosted,
    );
    // 4xx other than rate limiting: the request itself is wrong (key, username), a retry cannot help.
    if (res.status < 200 || res.status > 299) {
      // Its words name what is wrong ("The supplied authentication is invalid"): kept for the administrators.
      const said = res.text.trim().slice(0, 200);
      throw new SmsError(
        `SMS gateway answered ${res.status}${said ? `: ${said}` : ''}`,
        res.status >= 400 && res.status < 500 && res.status !== 429,
      );
    }
    return parseJson(res.text) as AtReply | null;
  }
  return {
    bulkSize: Math.max(1, opts.bulkSize ?? DEFAULT_BULK_SIZE),
    async sendBulk(to, text, sendOpts = {}) {
      let results: BulkResult[] = to.map(() => ({ gatewayId: null }));
      // No idempotency key: Africa's Talking takes none, and a batch is not one message.
      if (opts.gatewayUrl) results = readBulkReply(await post(to.join(','), text, {}, sendOpts.onPosted), to);
      else opts.log?.info({ to, text }, 'bulk sms (log transport, not sent)');
      for (const number of to) opts.outbox?.add({ channel: 'sms', to: number, subject: 'SMS', text });
      return results;
    },
    async send(to, text, sendOpts = {}) {
      let receipt: SmsReceipt = { gatewayId: null };
      if (opts.gatewayUrl) {
        const headers: Record<string, string> = sendOpts.key ? { 'Idempotency-Key': sendOpts.key } : {};
        receipt = readReply(await post(to, text, headers, sendOpts.onPosted));
      } else {
        opts.log?.info({ to, text }, 'sms (log transport, not sent)');
      }
      opts.outbox?.add({ channel: 'sms', to, subject: 'SMS', text });
      return receipt;
    },
  };
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/**
 * POSTs a form and reads the whole answer within `timeoutMs`. When time runs out it tells apart a request
 * the gateway never got (no connection, or the body not written: an `SmsError` to try again) from one it
 * got and did not answer (`SmsUnanswered`: it may have sent the message). Node's http rather than fetch,
 * whose abort says neither.
 */
function postForm(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  onPosted?: () => void,
): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    let connected = false;
    let written = false;
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    const req = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text });
        });
        res.on('error', fail);
      },
    );
    req.on('socket', (socket) => {
      // A kept-alive connection is ready already; a new one once connected (and, over TLS, its handshake done).
      if (!socket.connecting) connected = true;
      else socket.once(secure ? 'secureConnect' : 'connect', () => (connected = true));
    });
    req.on('finish', () => {
      written = true;
      if (connected) onPosted?.();
    });
    req.on('error', fail);
    const timer = setTimeout(() => {
      const err =
        connected && written
          ? new SmsUnanswered(timeoutMs)
          : new SmsError(`SMS gateway not reached within ${timeoutMs / 1000} s`, false);
      reject(err);
      req.destroy(err);
    }, timeoutMs);
    req.end(body);
  });
}
