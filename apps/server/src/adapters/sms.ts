import type { Outbox } from './outbox.ts';

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

export interface Sms {
  /**
   * Sends one text. `key` names this message for good: a gateway that honours the Idempotency-Key header
   * takes a second send with the same key as the first (docs/decisions/0050).
   */
  send(to: string, text: string, opts?: { key?: string }): Promise<SmsReceipt>;
}

interface Logger {
  info(obj: object, msg: string): void;
}

/** Africa's Talking's per-recipient status codes that no retry can change (invalid number, blacklisted, …). */
const PERMANENT_CODES = new Set([401, 402, 403, 404, 405, 406, 407]);

interface AtReply {
  SMSMessageData?: { Recipients?: { statusCode?: number; status?: string; messageId?: string }[] };
}

/** Reads an Africa's Talking send reply: the recipient's message id, or why it was refused. */
function readReply(body: AtReply | null): SmsReceipt {
  const recipient = body?.SMSMessageData?.Recipients?.[0];
  if (!recipient) return { gatewayId: null };
  const code = recipient.statusCode ?? 101;
  if (code >= 400) {
    throw new SmsError(`SMS gateway refused it: ${recipient.status ?? code}`, PERMANENT_CODES.has(code));
  }
  return { gatewayId: recipient.messageId ?? null };
}

/**
 * HTTP gateway when configured (Africa's Talking-style form POST), otherwise the log transport, which
 * logs the text and keeps it in the dev outbox. Production runs it only when SMS_TRANSPORT=log says so.
 */
export function createSms(opts: {
  gatewayUrl?: string;
  apiKey?: string;
  senderId: string;
  outbox?: Outbox;
  log?: Logger;
  fetchImpl?: typeof fetch;
}): Sms {
  const doFetch = opts.fetchImpl ?? fetch;
  return {
    async send(to, text, sendOpts = {}) {
      let receipt: SmsReceipt = { gatewayId: null };
      if (opts.gatewayUrl) {
        const res = await doFetch(opts.gatewayUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
            apiKey: opts.apiKey ?? '',
            ...(sendOpts.key ? { 'Idempotency-Key': sendOpts.key } : {}),
          },
          body: new URLSearchParams({ to, message: text, from: opts.senderId }),
          signal: AbortSignal.timeout(10_000),
        });
        // 4xx other than rate limiting: the request itself is wrong (key, sender), a retry cannot help.
        if (!res.ok)
          throw new SmsError(
            `SMS gateway answered ${res.status}`,
            res.status >= 400 && res.status < 500 && res.status !== 429,
          );
        receipt = readReply((await res.json().catch(() => null)) as AtReply | null);
      } else {
        opts.log?.info({ to, text }, 'sms (log transport, not sent)');
      }
      opts.outbox?.add({ channel: 'sms', to, subject: 'SMS', text });
      return receipt;
    },
  };
}
