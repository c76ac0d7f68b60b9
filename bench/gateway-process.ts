/**
 * The SMS gateway stub (`apps/server/test/support/sms-gateway.ts`) in a process of its own, as Africa's Talking
 * is: `bench/fanout.ts` forks it. In the sender's process, its record of every post (200,000 for an alert to
 * 100,000 farmers) grew the sender's heap to 290 MiB, and each collection of that heap slowed the sends
 * (bench/reports/0095-send-rate.md). Speaks over the fork's IPC channel: it sends `{ url, username, apiKey }` once
 * listening; `{ delayMs }` sets its answer's delay; `{ taken: true }` is answered with `{ taken }`, the messages
 * it took (a bulk post's numbers each); `{ counts: true }` with what it got since the last `{ reset: true }`:
 * requests, recipients, numbers taken, how many of them once and more than once, and the SMS parts sent.
 */
import { smsParts } from '../apps/server/src/lib/sms-text.ts';
import { startSmsGateway } from '../apps/server/test/support/sms-gateway.ts';

type Ask = { delayMs: number } | { taken: true } | { counts: true } | { reset: true } | { close: true };

const opts = { delayMs: Number(process.env.GATEWAY_DELAY_MS ?? 0) };
const gateway = await startSmsGateway(opts);
const send = (message: unknown) => process.send?.(message);
const taken = () => gateway.posts.reduce((n, p) => n + p.takenNumbers.length, 0);
/** What the posts since the last reset carried, counted once per number. */
function counts() {
  const per = new Map<string, number>();
  let recipients = 0;
  let parts = 0;
  const partsOf = new Map<string, number>();
  for (const p of gateway.posts) {
    recipients += p.numbers.length;
    const n = partsOf.get(p.message) ?? smsParts(p.message).length;
    partsOf.set(p.message, n);
    parts += n * p.takenNumbers.length;
    for (const number of p.takenNumbers) per.set(number, (per.get(number) ?? 0) + 1);
  }
  let twice = 0;
  for (const n of per.values()) if (n > 1) twice += 1;
  return { requests: gateway.posts.length, recipients, taken: taken(), distinct: per.size, twice, parts };
}
process.on('message', async (ask: Ask) => {
  if ('delayMs' in ask) {
    opts.delayMs = ask.delayMs;
    send({ delayMs: ask.delayMs });
  } else if ('taken' in ask) send({ taken: taken() });
  else if ('counts' in ask) send(counts());
  else if ('reset' in ask) {
    gateway.posts.length = 0;
    send({ reset: true });
  } else {
    await gateway.close();
    process.disconnect();
  }
});
send({ url: gateway.url, username: gateway.username, apiKey: gateway.apiKey });
