import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../adapters/clock.ts';
import { createSms, SmsUnanswered } from '../../adapters/sms.ts';
import { loadConfig } from '../../config.ts';
import { deliveries } from '../../db/schema/index.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { startSmsGateway, type SmsGateway, smsThrough } from '../../../test/support/sms-gateway.ts';
import { createUser } from '../../../test/support/users.ts';

/** Each part of a message waits this long for the stub's answer: well over a short lease for three parts. */
const GATEWAY_MS = 700;
/** The gateway's timeout as configured: well over the stub's answer, so no request is cut off on a loaded machine. */
const TIMEOUT_SECONDS = '2';

/**
 * A gateway slower than a worker's lease (docs/decisions/0070-lease-covers-the-send.md): two workers
 * over one database, on the real clock, with a gateway that sends every post it gets, like Africa's
 * Talking (no idempotency key). The lease comes from the gateway's timeout in config.ts.
 */
describe('delivery lease: a slow gateway sends each part once with two workers', () => {
  let t: TestContext;
  let gateway: SmsGateway;
  beforeAll(async () => {
    gateway = await startSmsGateway({ delayMs: GATEWAY_MS, ignoreKeys: true });
    t = await createTestApp({ env: { SMS_GATEWAY_TIMEOUT_SECONDS: TIMEOUT_SECONDS } });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  const workers = (leaseMs: number) =>
    ['a', 'b'].map(() =>
      testDelivery(
        t,
        { sms: smsThrough(gateway, { timeoutMs: t.deps.config.sms.timeoutMs }), clock: systemClock },
        { leaseMs, idleMs: 50 },
      ),
    );

  /** Tells a new farmer a three-part SMS and runs both workers until it is sent; returns what the gateway got. */
  async function sendWith(leaseMs: number, key: string) {
    const farmer = await createUser(t, 'farmer');
    const [a, b] = workers(leaseMs);
    const reason = 'The photo of your certificate could not be read, please send a clearer one. '.repeat(4);
    await a.tell({ to: farmer.id, key, kind: 'service', sms: smsMessage('vetting.refused.sms', { reason }) });
    const [row] = await t.deps.database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.key, `${key}|${farmer.id}|sms`));
    a.start();
    b.start();
    await expect.poll(async () => (await rowState(row.id)) === 'sent', { timeout: 15_000, interval: 100 }).toBe(true);
    // Any second worker's send still in flight reaches the gateway before counting.
    await new Promise((r) => setTimeout(r, 2 * GATEWAY_MS));
    await Promise.all([a.stop(), b.stop()]);
    const posts = gateway.posts.filter((p) => p.to === farmer.phone).map((p) => p.message);
    return { posts };
  }
  const rowState = async (id: number) =>
    (await t.deps.database.db.select().from(deliveries).where(eq(deliveries.id, id)))[0]?.state;

  it('derives the lease from the gateway timeout and refuses a shorter one', () => {
    // Five parts at most (lib/delivery-lease.ts) of 2 s each, plus a second to record them, twice over.
    expect(t.deps.config.deliveryLeaseSeconds).toBe(22);
    expect(t.deps.config.sms.timeoutMs).toBe(2000);
    expect(loadConfig({}).deliveryLeaseSeconds).toBe(102);
    expect(() => loadConfig({ SMS_GATEWAY_TIMEOUT_SECONDS: TIMEOUT_SECONDS, DELIVERY_LEASE_SECONDS: '1' })).toThrow(
      /DELIVERY_LEASE_SECONDS: 1 s is shorter than the longest send at SMS_GATEWAY_TIMEOUT_SECONDS=2 allows: at least 22 s/,
    );
    // As it was: a 10 s lease beside the gateway's 10 s timeout.
    expect(() => loadConfig({ DELIVERY_LEASE_SECONDS: '10' })).toThrow(/at least 102 s/);
    expect(loadConfig({ DELIVERY_LEASE_SECONDS: '300' }).deliveryLeaseSeconds).toBe(300);
  });

  it('stops waiting for a gateway that has not answered within SMS_GATEWAY_TIMEOUT_SECONDS, and says it got the post', async () => {
    const sms = smsThrough(gateway, { timeoutMs: loadConfig({ SMS_GATEWAY_TIMEOUT_SECONDS: '0.2' }).sms.timeoutMs });
    const started = performance.now();
    const failed = await sms.send('+256799999001', 'Kutu: test').catch((err: Error) => err);
    expect(failed).toBeInstanceOf(SmsUnanswered);
    expect(performance.now() - started).toBeLessThan(GATEWAY_MS);
    // A gateway nobody listens at was never reached: that one is tried again.
    const nowhere = createSms({
      gatewayUrl: 'http://127.0.0.1:9/version1/messaging',
      senderId: 'KUTU',
      timeoutMs: 200,
    });
    const refused = await nowhere.send('+256799999001', 'Kutu: test').catch((err: Error) => err);
    expect(refused).not.toBeInstanceOf(SmsUnanswered);
  });

  it('with the lease config.ts gives, each of the three parts reaches the gateway once', async () => {
    const { posts } = await sendWith(t.deps.config.deliveryLeaseSeconds * 1000, 'lease-derived');
    expect(posts).toHaveLength(3);
    expect(new Set(posts).size).toBe(3);
    expect(posts.map((p) => p.slice(-5))).toEqual(['(1/3)', '(2/3)', '(3/3)']);
  });

  it('with a lease shorter than the send (refused by config.ts now), the other worker sends parts again', async () => {
    // The control: the same run with a 1 s lease, as a worker could be started before, posts a part twice.
    const { posts } = await sendWith(1000, 'lease-short');
    expect(posts.length).toBeGreaterThan(3);
    expect(new Set(posts).size).toBe(3);
  });
});

/**
 * A gateway slower than the request's timeout (docs/decisions/0082): it sends what it got, as Africa's
 * Talking does, so a post it did not answer must never be posted again, by a retry or another worker.
 */
describe('delivery: a gateway slower than the timeout gets each part once', () => {
  let t: TestContext;
  let gateway: SmsGateway;
  beforeAll(async () => {
    gateway = await startSmsGateway({ delayMs: 500, ignoreKeys: true });
    t = await createTestApp({ env: { SMS_GATEWAY_TIMEOUT_SECONDS: '0.15' } });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  it('counts an unanswered part as sent, posts each part once, and notes it on the row', async () => {
    const delivery = testDelivery(
      t,
      { sms: smsThrough(gateway, { timeoutMs: t.deps.config.sms.timeoutMs }) },
      { leaseMs: t.deps.config.deliveryLeaseSeconds * 1000 },
    );
    const farmers = await Promise.all([0, 1, 2].map(() => createUser(t, 'farmer')));
    const long = 'The photo of your certificate could not be read, please send a clearer one. '.repeat(4);
    for (const [i, farmer] of farmers.entries()) {
      const reason = i === 0 ? long : 'blurred';
      await delivery.tell({
        to: farmer.id,
        key: 'slow',
        kind: 'service',
        sms: smsMessage('vetting.refused.sms', { reason }),
      });
    }
    // The first pass and, well after every retry's wait, more passes: nothing is posted twice.
    for (let pass = 0; pass < 3; pass++) {
      await delivery.sendDue();
      t.clock.advance(30 * 60_000);
    }
    await new Promise((r) => setTimeout(r, 700));
    const posts = farmers.map((f) => gateway.posts.filter((p) => p.numbers.includes(f.phone)).map((p) => p.message));
    expect(posts[0].map((p) => p.slice(-5))).toEqual(['(1/3)', '(2/3)', '(3/3)']);
    expect(posts.slice(1).map((p) => p.length)).toEqual([1, 1]);
    const rows = await t.deps.database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.key, `slow|${farmers[0].id}|sms`));
    expect(rows[0]).toMatchObject({ state: 'sent', attempts: 1, partsSent: 2 });
    expect(rows[0].error).toBe(
      'Part 1, 2, 3 of 3: the gateway got it but did not answer in time; counted as sent, not posted again',
    );
  });
});
