import type { Outbox } from './outbox.ts';

export interface Sms {
  send(to: string, text: string): Promise<void>;
}

interface Logger {
  info(obj: object, msg: string): void;
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
    async send(to, text) {
      if (opts.gatewayUrl) {
        const res = await doFetch(opts.gatewayUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
            apiKey: opts.apiKey ?? '',
          },
          body: new URLSearchParams({ to, message: text, from: opts.senderId }),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
      } else {
        opts.log?.info({ to, text }, 'sms (log transport, not sent)');
      }
      opts.outbox?.add({ channel: 'sms', to, subject: 'SMS', text });
    },
  };
}
