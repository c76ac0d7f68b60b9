import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sms } from '../../adapters/sms.ts';
import { deliveries, deliveryPosts } from '../../db/schema/index.ts';
import { smsMessage, smsText } from '../../i18n/sms-texts.ts';
import type { Tell } from '../../lib/deliverer.ts';
import { createTestApp, type TestContext, testClock, testDelivery } from '../../../test/support/app.ts';
import { startSmsGateway, type SmsGateway, smsThrough } from '../../../test/support/sms-gateway.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { messagesSent } from '../../lib/metrics.ts';
import { RETRY_AFTER_MS } from './delivery.sender.ts';

/** Numbers the stub refuses: for good (403 InvalidPhoneNumber), and once (405 InsufficientBalance, then taken). */
const REFUSED = '+256711000099';
const ONCE = '+256711000098';

/**
 * Bulk sending (docs/decisions/0130): messages with the same final text go to Africa's Talking as one
 * request per batch of numbers (`to` comma-separated), and each number's answer is kept on its own row:
 * its message id (a delivery report finds it), a refusal retried or failed alone, never the batch's.
 */
describe('delivery: one text to many farmers in one request', () => {
  let t: TestContext;
  let gateway: SmsGateway;
  const refusedOnce = new Set<string>();
  const sms = (bulkSize?: number) => smsThrough(gateway, { bulkSize, timeoutMs: t.deps.config.sms.timeoutMs });
  const worker = (channel: Sms, clock = t.clock) =>
    testDelivery(t, { sms: channel, clock }, { leaseMs: t.deps.config.deliveryLeaseSeconds * 1000 });
  beforeAll(async () => {
    gateway = await startSmsGateway({
      // Sends every post it gets, as Africa's Talking does: a batch posted twice would be sent twice.
      ignoreKeys: true,
      refuse: (to) => {
        if (to === REFUSED) return 403;
        if (to === ONCE && !refusedOnce.has(to)) {
          refusedOnce.add(to);
          return 405;
        }
        return false;
      },
    });
    t = await createTestApp({ env: { SMS_BULK_SIZE: '250', SMS_GATEWAY_TIMEOUT_SECONDS: '2' } });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  const advice = smsMessage('outbreak.alert.sms', { crop: 'Maize', source: 'Gulu', district: 'Lira' });
  const alert = (to: number, key: string): Tell => ({ to, key, kind: 'alert', sms: advice });
  const rowsOf = async (key: string) =>
    t.deps.database.db
      .select()
      .from(deliveries)
      .where(sql`${deliveries.key} like ${`${key}|%`}`)
      .orderBy(deliveries.id);
  const farmers = (n: number, language: 'en' | 'sw' = 'en') =>
    Promise.all(Array.from({ length: n }, () => createUser(t, 'farmer', { language })));
  const postsTo = (people: TestUser[]) =>
    gateway.posts.filter((p) => p.numbers.some((n) => people.some((f) => f.phone === n)));

  it('takes its batch size from SMS_BULK_SIZE', () => {
    expect(t.deps.config.sms.bulkSize).toBe(250);
  });

  it('posts one request per text and batch, and keeps each farmer’s own message id', async () => {
    const en = await farmers(5);
    const sw = await farmers(2, 'sw');
    const w = worker(sms(3));
    await w.tell([...en, ...sw].map((f) => alert(f.id, 'bulk-ids')));
    await w.sendDue();
    const posts = postsTo([...en, ...sw]);
    // English in batches of 3 (3 + 2), Swahili in one: three requests for seven messages, each number once.
    expect(posts.map((p) => p.numbers.length).sort()).toEqual([2, 2, 3]);
    expect(posts.every((p) => p.taken)).toBe(true);
    for (const f of [...en, ...sw]) expect(gateway.takenPer(f.phone)).toBe(1);
    expect(posts.find((p) => p.numbers.includes(sw[0]!.phone))!.message).toBe(smsText('sw', advice.key, advice.params));
    const rows = await rowsOf('bulk-ids');
    expect(rows.every((r) => r.state === 'sent' && r.attempts === 1 && r.partsPosted === 0)).toBe(true);
    // Each request's mark (written as it left) went with its rows' ends.
    const marked = (await t.deps.database.db.select().from(deliveryPosts)).flatMap((m) => m.deliveryIds);
    expect(rows.filter((r) => marked.includes(r.id))).toEqual([]);
    // Seven different ids, each the one the gateway gave that farmer's number.
    expect(new Set(rows.map((r) => r.gatewayId)).size).toBe(7);
    for (const r of rows) expect(r.gatewayId).toMatch(/^ATXid_\d+$/);
  });

  it('sends a delivery report to the farmer whose number it names, not the batch', async () => {
    const people = await farmers(4);
    const w = worker(sms());
    await w.tell(people.map((f) => alert(f.id, 'bulk-report')));
    await w.sendDue();
    expect(postsTo(people)).toHaveLength(1);
    const rows = await rowsOf('bulk-report');
    const third = rows.find((r) => r.userId === people[2]!.id)!;
    expect(
      await w.report({
        id: third.gatewayId!,
        status: 'Failed',
        failureReason: 'AbsentSubscriber',
        phoneNumber: people[2]!.phone,
      }),
    ).toBe(1);
    const after = await rowsOf('bulk-report');
    expect(after.filter((r) => r.state === 'failed').map((r) => r.userId)).toEqual([people[2]!.id]);
    expect(after.find((r) => r.userId === people[2]!.id)).toMatchObject({
      report: 'Failed',
      error: 'AbsentSubscriber',
    });
    expect(after.filter((r) => r.state === 'sent')).toHaveLength(3);
  });

  it('fails a refused number alone and retries a number refused for a while alone; the batch is sent once', async () => {
    const people = await farmers(3);
    const refused = await createUser(t, 'farmer', { phone: REFUSED });
    const once = await createUser(t, 'farmer', { phone: ONCE });
    const w = worker(sms());
    await w.tell([...people, refused, once].map((f) => alert(f.id, 'bulk-refused')));
    const counted = async () =>
      Object.fromEntries(
        (await messagesSent.get()).values
          .filter((v) => v.labels.channel === 'sms')
          .map((v) => [v.labels.outcome, v.value]),
      );
    const before = await counted();
    await w.sendDue();
    const first = await rowsOf('bulk-refused');
    // The request's ends are counted once per farmer, each by its own outcome.
    const after = await counted();
    for (const [outcome, n] of Object.entries({ sent: 3, failed: 1, retried: 1 }))
      expect((after[outcome] ?? 0) - (before[outcome] ?? 0)).toBe(n);
    const of = (rows: typeof first, who: TestUser) => rows.find((r) => r.userId === who.id)!;
    expect(postsTo([...people, refused, once])).toHaveLength(1);
    expect(of(first, refused)).toMatchObject({ state: 'failed', attempts: 1 });
    expect(of(first, refused).error).toContain('InvalidPhoneNumber');
    expect(of(first, once)).toMatchObject({ state: 'waiting', attempts: 1, gatewayId: null });
    expect(of(first, once).error).toContain('405 InsufficientBalance');
    for (const f of people) expect(of(first, f)).toMatchObject({ state: 'sent', attempts: 1 });

    t.clock.advance(RETRY_AFTER_MS[0]);
    await w.sendDue();
    const again = postsTo([...people, refused, once]).slice(1);
    // The retry is a request of its own, to that number alone.
    expect(again.map((p) => p.numbers)).toEqual([[ONCE]]);
    expect(of(await rowsOf('bulk-refused'), once)).toMatchObject({ state: 'sent', attempts: 2 });
    for (const f of people) expect(gateway.takenPer(f.phone)).toBe(1);
    expect(gateway.takenPer(ONCE)).toBe(1);
    expect(gateway.takenPer(REFUSED)).toBe(0);
  });

  it('a request refused as a whole is retried for each row, and sent once when the gateway is back', async () => {
    const people = await farmers(3);
    let down = true;
    const flaky = sms();
    const channel: Sms = {
      send: flaky.send,
      bulkSize: flaky.bulkSize,
      sendBulk: (to, text, opts) =>
        down ? Promise.reject(new Error('connect ECONNREFUSED')) : flaky.sendBulk!(to, text, opts),
    };
    const w = worker(channel);
    await w.tell(people.map((f) => alert(f.id, 'bulk-down')));
    await w.sendDue();
    expect((await rowsOf('bulk-down')).map((r) => r.state)).toEqual(['waiting', 'waiting', 'waiting']);
    down = false;
    t.clock.advance(RETRY_AFTER_MS[0]);
    await w.sendDue();
    expect((await rowsOf('bulk-down')).map((r) => [r.state, r.attempts])).toEqual([
      ['sent', 2],
      ['sent', 2],
      ['sent', 2],
    ]);
    expect(postsTo(people)).toHaveLength(1);
  });

  it('a worker killed while its batch waits for the answer: the next one posts none of it again, and loses none', async () => {
    const posted = await farmers(3);
    const unposted = await farmers(3);
    const real = sms();
    // Dies after its request reached the gateway: the answer is never read, nothing more is recorded.
    const dying: Sms = {
      send: real.send,
      bulkSize: real.bulkSize,
      sendBulk(to, text, opts) {
        real.sendBulk!(to, text, opts).catch(() => {});
        return new Promise(() => {});
      },
    };
    const a = worker(dying);
    await a.tell(posted.map((f) => alert(f.id, 'bulk-killed')));
    void a.sendDue();
    await expect.poll(() => postsTo(posted).length, { timeout: 10_000, interval: 20 }).toBe(1);
    // The request's mark, written as it left: one row naming each of its outbox rows.
    const killedIds = (await rowsOf('bulk-killed')).map((r) => r.id);
    const marks = () => t.deps.database.db.select().from(deliveryPosts);
    await expect
      .poll(async () => (await marks()).some((m) => killedIds.every((id) => m.deliveryIds.includes(id))), {
        timeout: 5_000,
        interval: 20,
      })
      .toBe(true);
    // Another dies after its claim and before its post: its rows were never posted.
    const b = worker({ send: real.send, bulkSize: real.bulkSize, sendBulk: () => new Promise(() => {}) });
    await b.tell(unposted.map((f) => alert(f.id, 'bulk-unposted')));
    void b.sendDue();
    await expect
      .poll(async () => (await rowsOf('bulk-unposted')).every((r) => r.state === 'sending'), { timeout: 5_000 })
      .toBe(true);

    // A new worker, once the dead ones' leases have run out.
    const later = testClock(new Date(t.clock.now().getTime() + t.deps.config.deliveryLeaseSeconds * 1000 + 1000));
    await worker(real, later).sendDue();
    expect(postsTo(posted)).toHaveLength(1);
    const killed = await rowsOf('bulk-killed');
    expect(killed.map((r) => r.state)).toEqual(['sent', 'sent', 'sent']);
    expect(killed[0]!.error).toBe(
      'The message: the gateway got it and the sending worker stopped; counted as sent, not posted again',
    );
    for (const f of [...posted, ...unposted]) expect(gateway.takenPer(f.phone)).toBe(1);
    expect((await rowsOf('bulk-unposted')).map((r) => [r.state, r.attempts])).toEqual([
      ['sent', 2],
      ['sent', 2],
      ['sent', 2],
    ]);
    // The dead worker's mark outlived its rows' ends; the next claim drops it.
    await worker(real, later).sendDue();
    expect((await marks()).filter((m) => killedIds.some((id) => m.deliveryIds.includes(id)))).toEqual([]);
  });
});

describe('delivery: a national send keeps every lane busy', () => {
  let t: TestContext;
  let gateway: SmsGateway;
  beforeAll(async () => {
    gateway = await startSmsGateway({ delayMs: 300 });
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  it('fills every lane with full requests while the next claim is read, and never more than its lanes', async () => {
    const people = await Promise.all(Array.from({ length: 40 }, () => createUser(t, 'farmer')));
    const channel = smsThrough(gateway, { bulkSize: 10, timeoutMs: t.deps.config.sms.timeoutMs });
    // Two lanes: a first claim of 8 rows (4 a lane) topped up to one request's 10 posted one at a time.
    const w = testDelivery(t, { sms: channel }, { leaseMs: t.deps.config.deliveryLeaseSeconds * 1000, concurrency: 2 });
    const advice = smsMessage('outbreak.alert.sms', { crop: 'Maize', source: 'Gulu', district: 'Lira' });
    await w.tell(people.map((f): Tell => ({ to: f.id, key: 'bulk-lanes', kind: 'alert', sms: advice })));
    await w.sendDue();
    expect(gateway.posts.map((p) => p.numbers.length)).toEqual([10, 10, 10, 10]);
    expect(gateway.mostInFlight).toBe(2);
    const rows = await t.deps.database.db.select().from(deliveries).where(sql`${deliveries.key} like 'bulk-lanes|%'`);
    expect(rows.map((r) => r.state)).toEqual(Array(40).fill('sent'));
  });

  it('gathers several texts of a few rows each into one claim, so that their requests go at once', async () => {
    const own = await startSmsGateway({ delayMs: 300 });
    try {
      const people = await Promise.all(Array.from({ length: 40 }, () => createUser(t, 'farmer')));
      const channel = smsThrough(own, { bulkSize: 10, timeoutMs: t.deps.config.sms.timeoutMs });
      // One claim at a time and four lanes: each district's advisory fills one request.
      const w = testDelivery(
        t,
        { sms: channel },
        { leaseMs: t.deps.config.deliveryLeaseSeconds * 1000, concurrency: 4, passes: 1 },
      );
      const tells = ['Lira', 'Gulu', 'Kumi', 'Soroti'].flatMap((district, d) => {
        const advice = smsMessage('outbreak.alert.sms', { crop: 'Maize', source: 'Gulu', district });
        return people
          .slice(d * 10, d * 10 + 10)
          .map((f): Tell => ({ to: f.id, key: 'bulk-texts', kind: 'alert', sms: advice }));
      });
      await w.tell(tells);
      await w.sendDue();
      expect(own.posts.map((p) => p.numbers.length)).toEqual([10, 10, 10, 10]);
      expect(own.mostInFlight).toBe(4);
    } finally {
      await own.close();
    }
  });
});
