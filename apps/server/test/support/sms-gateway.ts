import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSms } from '../../src/adapters/sms.ts';

/** One POST the stub received. */
export interface GatewayPost {
  username: string;
  to: string;
  message: string;
  from: string | null;
  key: string | null;
  /** When the whole request had reached the gateway (before its answer's delay). */
  at: number;
  /** Whether it was taken (not failed on purpose, not a repeat of a taken key); a bulk post: any of its numbers. */
  taken: boolean;
  /** The numbers of `to` (one, or a bulk post's many). */
  numbers: string[];
  /** The numbers it took and sent to. */
  takenNumbers: string[];
}

/** Africa's Talking's per-recipient failure statuses, by code (its SMS API reference). */
export const AT_FAILURES: Record<number, string> = {
  401: 'RiskHold',
  402: 'InvalidSenderId',
  403: 'InvalidPhoneNumber',
  404: 'UnsupportedNumberType',
  405: 'InsufficientBalance',
  406: 'UserInBlacklist',
  407: 'CouldNotRoute',
  500: 'InternalServerError',
  501: 'GatewayError',
  502: 'RejectedByGateway',
};

/**
 * A local stand-in for Africa's Talking's SMS API (`POST /version1/messaging`) on loopback, holding callers
 * to its documented request: a form with the account's `username`, `to` and `message` (`from` optional),
 * the `apiKey` header, and `Accept: application/json` for a JSON answer. As the provider: a wrong or missing
 * key or an unknown username is 401 ("The supplied authentication is invalid"), a missing field 400, and
 * without the Accept header the answer is XML. A send is 201 with
 * `{SMSMessageData:{Message, Recipients:[{statusCode, number, status, cost, messageId}]}}`, 101 when sent.
 *
 * Beyond the provider, for the delivery tests: like a gateway that honours the Idempotency-Key header, a
 * second post to one number with a key it already took is answered with the first one's id and not sent again
 * (`ignoreKeys`: one that sends every post, as Africa's Talking does). `failFirst` fails the first attempts
 * of each message (by its key, and by number and text: a bulk post fails while any of its numbers does) with a 500; `refuse` answers a number with a per-recipient failure code (403 when `true`). A bulk post (`to` as a
 * comma-separated list, as the provider takes it) is answered number by number, each with its own id.
 */
export async function startSmsGateway(
  opts: {
    failFirst?: number;
    delayMs?: number;
    refuse?: (to: string) => boolean | number;
    ignoreKeys?: boolean;
    username?: string;
    apiKey?: string;
  } = {},
) {
  const username = opts.username ?? 'sandbox';
  const apiKey = opts.apiKey ?? 'at-test-api-key';
  const posts: GatewayPost[] = [];
  /** Requests it refused before sending anything (status and reason). */
  const refused: { status: number; reason: string }[] = [];
  const attempts = new Map<string, number>();
  const taken = new Map<string, string>();
  let next = 1;
  /** Requests being answered now, and the most at once (a sender's sends in flight). */
  let inFlight = 0;
  let mostInFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    res.once('close', () => {
      inFlight -= 1;
    });
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', async () => {
      const at = Date.now();
      const refuse = (status: number, reason: string) => {
        refused.push({ status, reason });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
      };
      if (req.method !== 'POST' || req.url !== '/version1/messaging') return refuse(404, 'Not Found');
      if (req.headers.apikey !== apiKey) return refuse(401, 'The supplied authentication is invalid');
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        return refuse(415, 'Unsupported Media Type');
      }
      const form = new URLSearchParams(body);
      for (const field of ['username', 'to', 'message']) {
        if (!form.get(field)) return refuse(400, `Request is missing required form field '${field}'`);
      }
      if (form.get('username') !== username) return refuse(401, 'The supplied authentication is invalid');
      const json = String(req.headers.accept).includes('application/json');
      const to = form.get('to') ?? '';
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      const numbers = to.split(',').map((n) => n.trim());
      // A message's tries are counted by its key, and by number and text (alone or in a bulk post, the
      // post fails while any of its numbers has tries left to fail).
      const tried = (slot: string) => {
        attempts.set(slot, (attempts.get(slot) ?? 0) + 1);
        return attempts.get(slot)!;
      };
      const keyTries = key && numbers.length === 1 ? tried(key) : 0;
      let tries = Number.POSITIVE_INFINITY;
      for (const number of numbers) tries = Math.min(tries, tried(`${number}|${form.get('message') ?? ''}`));
      tries = Math.max(tries, keyTries);
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      const post: GatewayPost = {
        username: form.get('username') ?? '',
        to,
        message: form.get('message') ?? '',
        from: form.get('from'),
        key,
        at,
        taken: false,
        numbers,
        takenNumbers: [],
      };
      posts.push(post);
      if (tries <= (opts.failFirst ?? 0)) {
        res.writeHead(500).end('try again');
        return;
      }
      type Recipient = { statusCode: number; status: string; messageId: string; cost: string; number: string };
      const reply = (recipients: Recipient[]) => {
        const sent = recipients.filter((r) => r.statusCode === 101).length;
        const message = `Sent to ${sent}/${recipients.length} Total Cost: UGX ${sent * 30}.0000`;
        if (!json) {
          res.writeHead(201, { 'content-type': 'application/xml' });
          res.end(
            `<AfricasTalkingResponse><SMSMessageData><Message>${message}</Message><Recipients>` +
              recipients
                .map(
                  (r) =>
                    `<Recipient>${Object.entries(r)
                      .map(([k, v]) => `<${k}>${v}</${k}>`)
                      .join('')}</Recipient>`,
                )
                .join('') +
              '</Recipients></SMSMessageData></AfricasTalkingResponse>',
          );
          return;
        }
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ SMSMessageData: { Message: message, Recipients: recipients } }));
      };
      // Each number answered on its own: refused, a repeat of a key taken (one number alone), or taken.
      const single = numbers.length === 1;
      reply(
        numbers.map((number): Recipient => {
          const failure = opts.refuse?.(number);
          if (failure) {
            const code = failure === true ? 403 : failure;
            return { statusCode: code, status: AT_FAILURES[code] ?? 'Failed', messageId: 'None', cost: '0', number };
          }
          const known = single && key && !opts.ignoreKeys ? taken.get(key) : undefined;
          if (known) return { statusCode: 101, status: 'Success', messageId: known, cost: 'UGX 30.0000', number };
          const id = `ATXid_${next++}`;
          if (single && key) taken.set(key, id);
          post.taken = true;
          post.takenNumbers.push(number);
          return { statusCode: 101, status: 'Success', messageId: id, cost: 'UGX 30.0000', number };
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/version1/messaging`,
    username,
    apiKey,
    posts,
    refused,
    /** The most requests it was answering at once. */
    get mostInFlight() {
      return mostInFlight;
    },
    /** Messages taken per phone number (alone or in a bulk post). */
    takenPer(to: string) {
      return posts.reduce((n, p) => n + p.takenNumbers.filter((x) => x === to).length, 0);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmsGateway = Awaited<ReturnType<typeof startSmsGateway>>;

/** The app's SMS adapter sending through `gateway` as sender KUTU; `more` sets its other options (a timeout). */
export function smsThrough(
  gateway: Pick<SmsGateway, 'url' | 'apiKey' | 'username'>,
  more: Omit<Parameters<typeof createSms>[0], 'gatewayUrl' | 'apiKey' | 'username' | 'senderId'> = {},
) {
  return createSms({
    gatewayUrl: gateway.url,
    apiKey: gateway.apiKey,
    username: gateway.username,
    senderId: 'KUTU',
    ...more,
  });
}
