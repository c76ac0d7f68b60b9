import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the stub received. */
export interface GatewayPost {
  to: string;
  message: string;
  key: string | null;
  /** When the whole request had reached the gateway (before its answer's delay). */
  at: number;
  /** Whether it was taken (not failed on purpose, not a repeat of a taken key). */
  taken: boolean;
}

/**
 * A local stand-in for an Africa's Talking-style SMS gateway on loopback: form POSTs, JSON replies with a
 * message id per recipient. Like a gateway that honours the Idempotency-Key header, a second post with a
 * key it already took is answered with the first one's id and not sent again. `failFirst` fails the
 * first attempts of each key with a 500; `refuse` answers numbers with a per-recipient error; `ignoreKeys`
 * makes it a gateway that sends every post (one without the header, as Africa's Talking's SMS API).
 */
export async function startSmsGateway(
  opts: { failFirst?: number; delayMs?: number; refuse?: (to: string) => boolean; ignoreKeys?: boolean } = {},
) {
  const posts: GatewayPost[] = [];
  const attempts = new Map<string, number>();
  const taken = new Map<string, string>();
  let next = 1;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', async () => {
      const at = Date.now();
      const form = new URLSearchParams(body);
      const to = form.get('to') ?? '';
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      const slot = key ?? `no-key-${next}`;
      const tries = (attempts.get(slot) ?? 0) + 1;
      attempts.set(slot, tries);
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      const post: GatewayPost = { to, message: form.get('message') ?? '', key, at, taken: false };
      posts.push(post);
      if (tries <= (opts.failFirst ?? 0)) {
        res.writeHead(500).end('try again');
        return;
      }
      const reply = (recipient: object) => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ SMSMessageData: { Message: 'Sent to 1/1', Recipients: [recipient] } }));
      };
      if (opts.refuse?.(to)) {
        reply({ statusCode: 403, number: to, status: 'InvalidPhoneNumber', messageId: 'None' });
        return;
      }
      const known = key && !opts.ignoreKeys ? taken.get(key) : undefined;
      if (known) {
        reply({ statusCode: 101, number: to, status: 'Success', messageId: known });
        return;
      }
      const id = `ATXid_${next++}`;
      if (key) taken.set(key, id);
      post.taken = true;
      reply({ statusCode: 101, number: to, status: 'Success', messageId: id });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/version1/messaging`,
    posts,
    /** Messages taken per phone number. */
    takenPer(to: string) {
      return posts.filter((p) => p.taken && p.to === to).length;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmsGateway = Awaited<ReturnType<typeof startSmsGateway>>;
