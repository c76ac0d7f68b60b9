import { eq, inArray, sql } from 'drizzle-orm';
import { api, deliveryApi, phoneApi } from '@kutu/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, notifications, users } from '../../db/schema/index.ts';
import { message } from '../../i18n/i18n.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import type { Tell } from '../../lib/deliverer.ts';
import { messagesSent, registry } from '../../lib/metrics.ts';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { startSmsGateway, type SmsGateway, smsThrough } from '../../../test/support/sms-gateway.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import type { createDeliveryService } from './delivery.service.ts';
import { RETRY_AFTER_MS } from './delivery.sender.ts';
import { WRONG_SECRET_MAX } from '../../lib/secret-tries.ts';

const SECRET = 'report-secret-0123456789';

/**
 * The outbox (docs/decisions/0050) against a local gateway stub that fails each message's first two
 * attempts: the worker's passes are run by hand, with the test clock, so retries are seen one by one.
 */
describe('delivery: one way to tell a person, through the outbox', () => {
  let t: TestContext;
  let gateway: SmsGateway;
  let worker: ReturnType<typeof createDeliveryService>;
  let farmers: TestUser[];
  let admin: TestUser;

  beforeAll(async () => {
    gateway = await startSmsGateway({ failFirst: 2, refuse: (to) => to.endsWith('999') });
    const sms = smsThrough(gateway);
    t = await createTestApp({ sms, env: { SMS_REPORT_SECRET: SECRET } });
    // A worker process's sender: it sends only when a pass is run.
    worker = testDelivery(t, { sms }, {});
    farmers = await Promise.all([1, 2, 3].map(() => createUser(t, 'farmer')));
    admin = await createUser(t, 'admin');
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  const alert = (to: number, key: string): Tell => ({
    to,
    key,
    kind: 'alert',
    app: { type: 'outbreak_alert', text: message('followUp.field.maize') },
    sms: smsMessage('outbreak.alert.sms', { crop: 'Maize', source: 'Gulu', district: 'Lira' }),
  });
  const rowsOf = (key: string) =>
    t.deps.database.db
      .select()
      .from(deliveries)
      .where(sql`${deliveries.key} like ${`${key}|%`}`);

  it('sends each person one SMS although the gateway fails the first two attempts, retrying after a wait', async () => {
    const sentBefore =
      (await messagesSent.get()).values.find((v) => v.labels.channel === 'sms' && v.labels.outcome === 'sent')?.value ??
      0;
    await worker.tell(farmers.map((f) => alert(f.id, 'retry-test')));
    // Told twice: written once (the key), in the app and in the outbox.
    await worker.tell(farmers.map((f) => alert(f.id, 'retry-test')));
    expect(await rowsOf('retry-test')).toHaveLength(3);
    const notes = await t.deps.database.db
      .select()
      .from(notifications)
      .where(
        inArray(
          notifications.userId,
          farmers.map((f) => f.id),
        ),
      );
    expect(notes).toHaveLength(3);

    await worker.sendDue();
    let rows = await rowsOf('retry-test');
    expect(rows.map((r) => r.state)).toEqual(['waiting', 'waiting', 'waiting']);
    expect(rows[0].error).toContain('500');
    // Not due yet: nothing is tried before the wait is over.
    expect(await worker.sendDue()).toBe(0);
    t.clock.advance(RETRY_AFTER_MS[0]);
    expect(RETRY_AFTER_MS[0]).toBeLessThanOrEqual(60_000);
    await worker.sendDue();
    t.clock.advance(RETRY_AFTER_MS[1]);
    await worker.sendDue();
    rows = await rowsOf('retry-test');
    expect(rows.map((r) => r.state)).toEqual(['sent', 'sent', 'sent']);
    expect(rows.every((r) => r.attempts === 3 && r.gatewayId?.startsWith('ATXid_'))).toBe(true);
    for (const f of farmers) expect(gateway.takenPer(f.phone)).toBe(1);
    expect(gateway.posts.filter((p) => p.numbers.includes(farmers[0].phone))).toHaveLength(3);
    expect(gateway.posts.find((p) => p.taken)?.message).toMatch(/^Kutu: Maize rust confirmed in Gulu/);
    const sentAfter =
      (await messagesSent.get()).values.find((v) => v.labels.channel === 'sms' && v.labels.outcome === 'sent')?.value ??
      0;
    expect(sentAfter - sentBefore).toBe(3);
  });

  it('respects an opt-out made between the write and the send, for alerts but not for answers to the person', async () => {
    const [f] = farmers;
    await worker.tell([alert(f.id, 'opt-out'), { ...alert(f.id, 'opt-out-service'), kind: 'service' }]);
    await t.deps.database.db.update(users).set({ smsAlerts: false }).where(eq(users.id, f.id));
    const before = gateway.posts.length;
    await worker.sendDue();
    const [row] = await rowsOf('opt-out');
    expect(row.state).toBe('skipped');
    expect(row.error).toBe('SMS turned off by the person');
    // The service message was tried (and failed once, as this gateway does).
    expect(gateway.posts.slice(before).map((p) => p.to)).toEqual([f.phone]);
    await t.deps.database.db.update(users).set({ smsAlerts: true }).where(eq(users.id, f.id));
  });

  it('fails a refused number for good with the gateway’s answer; an administrator sees it and sends it again', async () => {
    const refused = await createUser(t, 'farmer', { phone: '+256700000999' });
    await worker.tell(alert(refused.id, 'refused'));
    await worker.sendDue();
    t.clock.advance(RETRY_AFTER_MS[0]);
    await worker.sendDue();
    t.clock.advance(RETRY_AFTER_MS[1]);
    await worker.sendDue();
    const [row] = await rowsOf('refused');
    expect(row.state).toBe('failed');
    expect(row.error).toContain('InvalidPhoneNumber');

    const farmerAsks = await t.app.inject({ method: 'GET', url: deliveryApi.failed, headers: farmers[0].headers });
    expect(farmerAsks.statusCode).toBe(403);
    const page = await t.app.inject({
      method: 'GET',
      url: `${deliveryApi.failed}?page_size=5`,
      headers: admin.headers,
    });
    expect(page.statusCode, page.body).toBe(200);
    const listed = page.json().results.find((m: { id: number }) => m.id === row.id);
    expect(listed).toMatchObject({
      channel: 'sms',
      reason: row.error,
      reason_kind: 'number_invalid',
      language: 'en',
      to: { id: refused.id, address: refused.phone },
    });
    expect(listed.text).toMatch(/^Kutu: Maize rust confirmed in Gulu/);
    // The text as the farmer was sent it, whatever the language of the administrator who reads the list.
    await t.app.inject({ method: 'PUT', url: api.auth.language, headers: admin.headers, payload: { language: 'sw' } });
    const inSwahili = await t.app.inject({
      method: 'GET',
      url: `${deliveryApi.failed}?page_size=5`,
      headers: admin.headers,
    });
    expect(inSwahili.json().results.find((m: { id: number }) => m.id === row.id).text).toBe(listed.text);
    await t.app.inject({ method: 'PUT', url: api.auth.language, headers: admin.headers, payload: { language: 'en' } });

    // The number is corrected; sending again goes out at once (the app's sender) and the row leaves the list.
    await t.deps.database.db.update(users).set({ phone: '+256700000998' }).where(eq(users.id, refused.id));
    const again = await t.app.inject({ method: 'POST', url: deliveryApi.resendPath(row.id), headers: admin.headers });
    expect(again.statusCode, again.body).toBe(204);
    const [after] = await rowsOf('refused');
    expect(after).toMatchObject({ state: 'sent', attempts: 1, error: null });
    expect(gateway.takenPer('+256700000998')).toBe(1);
    const twice = await t.app.inject({ method: 'POST', url: deliveryApi.resendPath(row.id), headers: admin.headers });
    expect(twice.statusCode).toBe(404);
  });

  it('records the gateway’s delivery report against the message, only with the shared secret', async () => {
    const [row] = (await rowsOf('retry-test')).filter((r) => r.userId === farmers[1].id);
    const report = (secret: string, status: string) =>
      t.app.inject({
        method: 'POST',
        url: `${deliveryApi.reports}?secret=${secret}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          id: row.gatewayId!,
          status,
          phoneNumber: farmers[1].phone,
          networkCode: '64101',
          failureReason: status === 'Failed' ? 'AbsentSubscriber' : '',
          retryCount: '0',
        }).toString(),
      });
    expect((await report('wrong-secret-0123456789', 'Success')).statusCode).toBe(403);
    expect((await report(SECRET, 'Success')).statusCode).toBe(204);
    let [stored] = (await rowsOf('retry-test')).filter((r) => r.id === row.id);
    expect(stored).toMatchObject({ state: 'sent', report: 'Success' });
    expect((await report(SECRET, 'Failed')).statusCode).toBe(204);
    [stored] = (await rowsOf('retry-test')).filter((r) => r.id === row.id);
    expect(stored).toMatchObject({ state: 'failed', report: 'Failed', error: 'AbsentSubscriber' });
  });

  it('cuts off an address that keeps guessing the report secret, never the right secret from it', async () => {
    const report = (remoteAddress: string, secret: string) =>
      t.app.inject({
        method: 'POST',
        url: `${deliveryApi.reports}?secret=${secret}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'id=ATXid_unknown&status=Success&phoneNumber=%2B256700000001',
        remoteAddress,
      });
    for (let i = 0; i < WRONG_SECRET_MAX; i++) expect((await report('203.0.113.9', `guess-${i}`)).statusCode).toBe(403);
    expect((await report('203.0.113.9', 'guess-again')).statusCode).toBe(429);
    expect((await report('203.0.113.9', SECRET)).statusCode).toBe(204);
    expect((await report('198.51.100.7', SECRET)).statusCode).toBe(204);
    expect((await report('203.0.113.9', 'guess-once-more')).statusCode).toBe(429);
  });

  it('shows waiting and failed messages by channel in the metrics', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/kutu_messages\{channel="sms",state="failed"\} [1-9]/);
    expect(res.body).toMatch(/kutu_messages_total\{channel="sms",outcome="retried"\} [1-9]/);
    expect(await registry.getSingleMetricAsString('kutu_messages_total')).toContain('outcome="sent"');
  });
});

describe('a long SMS sent in parts, through a gateway that honours no Idempotency-Key', () => {
  let t: TestContext;
  let gateway: SmsGateway;
  beforeAll(async () => {
    // Each part fails its first try: the second part fails after the first was taken.
    gateway = await startSmsGateway({ failFirst: 1, ignoreKeys: true });
    t = await createTestApp({
      sms: smsThrough(gateway),
    });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  it('sends each part once: a retry sends the parts the gateway had not taken, and keeps the first part’s id', async () => {
    const farmer = await createUser(t, 'farmer');
    const worker = testDelivery(t, { sms: smsThrough(gateway) }, {});
    const reason = message('consultations.reason', {
      reason: 'The road to the farm is closed by the rains. '.repeat(5),
    });
    const sms = smsMessage('consultations.cancelled.sms', { who: 'Expert okello', when: new Date(), reason });
    await worker.tell({ to: farmer.id, key: 'long-sms', kind: 'service', sms });
    for (const wait of [0, ...RETRY_AFTER_MS.slice(0, 3)]) {
      t.clock.advance(wait);
      await worker.sendDue();
    }
    const [row] = await t.deps.database.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.key, `long-sms|${farmer.id}|sms`));
    const taken = gateway.posts.filter((p) => p.to === farmer.phone && p.taken).map((p) => p.message);
    expect(taken.length).toBeGreaterThan(1);
    expect(row).toMatchObject({ state: 'sent', partsSent: taken.length - 1 });
    // Every part taken once, in order: (1/N), (2/N), …
    expect(taken.map((m) => m.match(/\((\d+)\/\d+\)$/)?.[1])).toEqual(taken.map((_, i) => String(i + 1)));
    expect(row.gatewayId).toBe('ATXid_1');
  });
});

describe('a sender told to stop (SIGTERM)', () => {
  let t: TestContext;
  let gateway: SmsGateway;
  beforeAll(async () => {
    // A slow gateway: sends are in flight when the stop comes.
    gateway = await startSmsGateway({ delayMs: 150 });
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  it('claims nothing more, gives back the rows not started, and records every send in flight', async () => {
    const farmer = await createUser(t, 'farmer');
    const worker = testDelivery(t, { sms: smsThrough(gateway) }, { batch: 4, concurrency: 2, idleMs: 50 });
    const keys = Array.from({ length: 20 }, (_, i) => `stop-${i}`);
    for (const key of keys) {
      await worker.tell({ to: farmer.id, key, kind: 'service', sms: smsMessage('smsIn.help', { code: '*384*1#' }) });
    }
    worker.start();
    await expect.poll(() => gateway.posts.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await worker.stop();
    const posted = gateway.posts.length;
    const rows = await t.deps.database.db
      .select()
      .from(deliveries)
      .where(
        inArray(
          deliveries.key,
          keys.map((k) => `${k}|${farmer.id}|sms`),
        ),
      );
    const states = rows.map((r) => r.state);
    // Every send the gateway received is recorded as sent; the rest wait for the next process, unclaimed.
    expect(states.filter((s) => s === 'sent')).toHaveLength(posted);
    expect(states.filter((s) => s === 'waiting')).toHaveLength(20 - posted);
    expect(posted).toBeLessThan(20);
    expect(rows.filter((r) => r.state === 'waiting').every((r) => r.attempts === 0 && r.leaseUntil === null)).toBe(
      true,
    );
    // A pass run as a job after the stop claims nothing either.
    expect(await worker.sendDue()).toBe(0);
    await new Promise((r) => setTimeout(r, 400));
    expect(gateway.posts.length).toBe(posted);
  });
});

describe('the reply to an inbound SMS (HELP, STOP, …)', () => {
  const KEY = 'gateway-secret-for-the-reply-tests';
  let t: TestContext;
  let gateway: SmsGateway;
  beforeAll(async () => {
    // The gateway refuses the farmer's number for good (403 InvalidPhoneNumber).
    gateway = await startSmsGateway({ refuse: (to) => to.endsWith('997') });
    t = await createTestApp({
      sms: smsThrough(gateway),
      env: { AT_CALLBACK_SECRET: KEY, PHONE_RATE_LIMIT_MAX: '10000' },
    });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  it('that could not be sent is on the administrators’ failed messages, with its text', async () => {
    const farmer = await createUser(t, 'farmer', { phone: '+256700000997' });
    const ok = await createUser(t, 'farmer');
    const admin = await createUser(t, 'admin');
    const inbound = (from: string) =>
      t.app.inject({
        method: 'POST',
        url: `${phoneApi.sms}?key=${KEY}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          from,
          to: '12345',
          text: 'HELP',
          date: '2026-11-20 08:00:00',
          id: 'r1',
        }).toString(),
      });
    expect((await inbound(farmer.phone)).statusCode).toBe(200);
    expect((await inbound(ok.phone)).statusCode).toBe(200);
    // The other farmer's reply went out, through the outbox.
    expect(gateway.takenPer(ok.phone)).toBe(1);
    const [sent] = await t.deps.database.db.select().from(deliveries).where(eq(deliveries.userId, ok.id));
    expect(sent).toMatchObject({ state: 'sent', channel: 'sms', kind: 'requested' });

    const page = await t.app.inject({
      method: 'GET',
      url: `${deliveryApi.failed}?page_size=50`,
      headers: admin.headers,
    });
    expect(page.statusCode, page.body).toBe(200);
    const listed = page.json().results.filter((m: { to: { id: number } }) => m.to.id === farmer.id);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ channel: 'sms', to: { address: farmer.phone } });
    expect(listed[0].reason).toContain('InvalidPhoneNumber');
    expect(listed[0].text).toMatch(/^Kutu/);
  });
});
