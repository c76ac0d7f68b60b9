/**
 * One delivery worker process for `bench/fanout.ts`: sends every due outbox row through the gateway stub, in
 * bulk, beside the other worker processes the bench forks, on one PostgreSQL database (the claims' lease keeps
 * any row from being taken by two). Told `{ databaseUrl, gateway, options }` over IPC, it opens the database and
 * says `{ ready: true }` (`clockOffsetMs`, when given, moves its clock from the system's: a bench whose app runs on a set
 * clock writes rows due at that clock's time); told `{ go: true }`, it sends, and answers `{ handled, ms, rss }` (rows it handled,
 * the time, its peak RSS in KiB) when nothing is due any more.
 */
import { systemClock } from '../apps/server/src/adapters/clock.ts';
import { createMemoryCoordinator } from '../apps/server/src/adapters/coordinator.ts';
import { createSms } from '../apps/server/src/adapters/sms.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { createDeliveryService } from '../apps/server/src/modules/delivery/delivery.service.ts';
import { withChannels } from '../apps/server/test/support/app.ts';
import { createMailer } from '../apps/server/src/adapters/mailer.ts';
import type { SenderOptions } from '../apps/server/src/modules/delivery/delivery.sender.ts';

interface Job {
  databaseUrl: string;
  gateway: { url: string; username: string; apiKey: string };
  options: SenderOptions;
  clockOffsetMs?: number;
}

process.once('message', async (job: Job) => {
  const database = await openDatabase({ url: job.databaseUrl });
  const config = loadConfig({ NODE_ENV: 'test' });
  const delivery = createDeliveryService(
    ...withChannels({
      db: database.db,
      clock: job.clockOffsetMs ? { now: () => new Date(Date.now() + (job.clockOffsetMs ?? 0)) } : systemClock,
      sms: createSms({
        gatewayUrl: job.gateway.url,
        apiKey: job.gateway.apiKey,
        username: job.gateway.username,
        senderId: 'KUTU',
      }),
      mailer: createMailer({ from: config.mailFrom }),
      coordinator: createMemoryCoordinator(),
      config,
    }),
    job.options,
  );
  process.send?.({ ready: true });
  await new Promise((resolve) => process.once('message', resolve));
  const started = performance.now();
  let handled = 0;
  for (;;) {
    const n = await delivery.sendDue();
    handled += n;
    if (n === 0) break;
  }
  const ms = performance.now() - started;
  await database.close();
  process.send?.({ handled, ms, rss: process.resourceUsage().maxRSS }, () => process.exit(0));
});
