/**
 * The SMS gateway stub (`apps/server/test/support/sms-gateway.ts`) in a process of its own, as Africa's Talking
 * is: `bench/fanout.ts` forks it. In the sender's process, its record of every post (200,000 for an alert to
 * 100,000 farmers) grew the sender's heap to 290 MiB, and each collection of that heap slowed the sends
 * (bench/reports/0095-send-rate.md). Speaks over the fork's IPC channel: it sends `{ url, username, apiKey }` once
 * listening; `{ delayMs }` sets its answer's delay, and `{ taken: true }` is answered with `{ taken }`, the posts it took.
 */
import { startSmsGateway } from '../apps/server/test/support/sms-gateway.ts';

type Ask = { delayMs: number } | { taken: true } | { close: true };

const opts = { delayMs: Number(process.env.GATEWAY_DELAY_MS ?? 0) };
const gateway = await startSmsGateway(opts);
const send = (message: unknown) => process.send?.(message);
process.on('message', async (ask: Ask) => {
  if ('delayMs' in ask) {
    opts.delayMs = ask.delayMs;
    send({ delayMs: ask.delayMs });
  } else if ('taken' in ask) send({ taken: gateway.posts.filter((p) => p.taken).length });
  else {
    await gateway.close();
    process.disconnect();
  }
});
send({ url: gateway.url, username: gateway.username, apiKey: gateway.apiKey });
