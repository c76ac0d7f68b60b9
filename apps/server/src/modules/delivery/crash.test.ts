import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sms } from '../../adapters/sms.ts';
import { deliveries } from '../../db/schema/index.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import { createTestApp, type TestContext, testClock, testDelivery } from '../../../test/support/app.ts';
import { startSmsGateway, type SmsGateway, smsThrough } from '../../../test/support/sms-gateway.ts';
import { createUser } from '../../../test/support/users.ts';

/**
 * A worker killed (kill -9) while a part's post waits for a slow gateway's answer (docs/decisions/0109),
 * with a gateway that sends every post it gets, as Africa's Talking does (it takes no idempotency key). The
 * worker that claims the row after the dead one's lease does not post that part again. Before, it did: the
 * message arrived twice.
 */
describe('delivery: a worker killed while its post waits for the gateway', () => {
  let t: TestContext;
  let gateway: SmsGateway;
  beforeAll(async () => {
    gateway = await startSmsGateway({ delayMs: 400, ignoreKeys: true });
    t = await createTestApp({ env: { SMS_GATEWAY_TIMEOUT_SECONDS: '2' } });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  const leaseMs = () => t.deps.config.deliveryLeaseSeconds * 1000;
  const real = () => smsThrough(gateway, { timeoutMs: t.deps.config.sms.timeoutMs });
  const worker = (sms: Sms, clock = t.clock) => testDelivery(t, { sms, clock }, { leaseMs: leaseMs() });

  it('does not post again the part in flight when its worker died; sends the rest and notes it', async () => {
    const farmer = await createUser(t, 'farmer');
    // The first part goes as usual; the second reaches the gateway and its worker dies before the answer:
    // nothing after that runs in it (its send never ends, nothing more is recorded).
    const gatewaySms = real();
    let calls = 0;
    const dying: Sms = {
      send(to, text, opts) {
        calls += 1;
        const sent = gatewaySms.send(to, text, opts);
        if (calls < 2) return sent;
        sent.catch(() => {});
        return new Promise(() => {});
      },
    };
    const a = worker(dying);
    const reason = 'The photo of your certificate could not be read, please send a clearer one. '.repeat(4);
    await a.tell({ to: farmer.id, key: 'killed', kind: 'service', sms: smsMessage('vetting.refused.sms', { reason }) });
    void a.sendDue();
    const posts = () => gateway.posts.filter((p) => p.to === farmer.phone).map((p) => p.message.slice(-5));
    await expect.poll(posts, { timeout: 10_000, interval: 50 }).toEqual(['(1/3)', '(2/3)']);

    // A new worker, once the dead one's lease has run out.
    const later = testClock(new Date(t.clock.now().getTime() + leaseMs() + 1000));
    await worker(real(), later).sendDue();
    await new Promise((r) => setTimeout(r, 600));
    expect(posts()).toEqual(['(1/3)', '(2/3)', '(3/3)']);
    const [row] = await t.deps.database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.key, `killed|${farmer.id}|sms`));
    expect(row).toMatchObject({ state: 'sent', attempts: 2 });
    expect(row.error).toBe(
      'Part 2 of 3: the gateway got it and the sending worker stopped; counted as sent, not posted again',
    );
  });
});
