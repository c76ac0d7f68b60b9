import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCoordinator } from '../../adapters/coordinator.ts';
import { deliveries } from '../../db/schema/index.ts';
import { storeMessage } from '../../i18n/i18n.ts';
import { smsMessage, smsText } from '../../i18n/sms-texts.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import type { Channel } from './channels.ts';
import { createChannels, createDeliveryService } from './delivery.service.ts';
import { createVoiceCalls } from '../../adapters/voice-calls.ts';

/** 1. The new channel's adapter (adapters/<name>.ts): here a loft of pigeons that remembers what it carried. */
class PigeonRefused extends Error {
  readonly permanent = true;
}
function createPigeonLoft() {
  const carried: { to: string; text: string }[] = [];
  return {
    carried,
    async send(to: string, text: string) {
      if (to.endsWith('0')) throw new PigeonRefused(`No loft at ${to}`);
      carried.push({ to, text });
      return { gatewayId: `pigeon-${carried.length}` };
    },
  };
}

/**
 * A channel added the way docs/phones.md says (its adapter, its record, registered in the channel
 * table the delivery service is given): written, sent, failed and listed by the same code as SMS and
 * email, which never names it. A row whose channel has no record fails.
 */
describe('delivery channels: one table', () => {
  let t: TestContext;
  let worker: ReturnType<typeof createDeliveryService>;
  const loft = createPigeonLoft();
  let reachable: TestUser;
  let refused: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    /** 2. Its record (modules/delivery/channels.ts): it carries the SMS text to the phone number. */
    const pigeon: Channel = {
      compose: (tell) => (tell.sms ? { body: storeMessage(tell.sms) } : null),
      column: 'phone',
      allowed: (person) => (person.smsStoppedAt ? 'The number sent STOP' : true),
      send: (_row, to, text) => loft.send(to.address, text),
    };
    // 3. Registered where the product registers its channels: the table services.ts builds with
    // createChannels() and hands to the delivery service (a real channel's record goes inside
    // createChannels, and its name in the contract's deliveryChannels; the type then asks for it).
    const deps = {
      db: t.deps.database.db,
      clock: t.clock,
      sms: t.deps.sms,
      mailer: t.deps.mailer,
      coordinator: createMemoryCoordinator(),
      config: t.deps.config,
      calls: createVoiceCalls({}),
    };
    worker = createDeliveryService(deps, { ...createChannels(deps), pigeon });
    // The loft refuses numbers ending in 0: this one must not (a counter-made number would, one time in ten).
    reachable = await createUser(t, 'farmer', { language: 'sw', phone: '+256700000011' });
    refused = await createUser(t, 'farmer', { phone: '+256700000010' });
  });
  afterAll(() => t.close());

  const rowOf = async (key: string) =>
    (await t.deps.database.db.select().from(deliveries).where(eq(deliveries.key, key)))[0];
  const advice = smsMessage('outbreak.alert.sms', { crop: 'Maize', source: 'Gulu', district: 'Lira' });

  it('writes and sends the new channel beside SMS, in the person’s language, to the address its record names', async () => {
    await worker.tell({ to: reachable.id, key: 'pigeon-ok', kind: 'service', sms: advice });
    await worker.sendDue();
    const row = await rowOf(`pigeon-ok|${reachable.id}|pigeon`);
    expect(row).toMatchObject({ channel: 'pigeon', state: 'sent', gatewayId: 'pigeon-1' });
    expect(await rowOf(`pigeon-ok|${reachable.id}|sms`)).toMatchObject({ state: 'sent' });
    expect(loft.carried).toHaveLength(1);
    expect(loft.carried[0]!.to).toBe(reachable.phone);
    // Rendered from the stored key when sent, in the person's language (Swahili), whole: no SMS parts.
    expect(loft.carried[0]!.text).toBe(smsText('sw', advice.key, advice.params));
    expect(loft.carried[0]!.text).toContain('kutu ya Maize');
  });

  it('fails a refused send for good at once and lists it for administrators with the record’s address', async () => {
    await worker.tell({ to: refused.id, key: 'pigeon-refused', kind: 'service', sms: advice });
    await worker.sendDue();
    const row = await rowOf(`pigeon-refused|${refused.id}|pigeon`);
    expect(row).toMatchObject({ state: 'failed', attempts: 1, error: 'No loft at +256700000010' });
    const page = await worker.failed({ page: 1, page_size: 50 });
    const listed = page.results.find((m) => m.id === row!.id);
    expect(listed).toMatchObject({ channel: 'pigeon', to: { id: refused.id, address: '+256700000010' } });
  });

  it('fails a row whose channel has no record, and sends it by no other channel', async () => {
    const mailsBefore = t.smtp.inbox.length;
    const now = t.clock.now();
    const [{ id }] = await t.deps.database.db
      .insert(deliveries)
      .values({
        key: 'no-such-channel',
        userId: reachable.id,
        channel: sql`'carrier'` as never,
        kind: 'service',
        body: storeMessage(advice),
        nextAt: now,
        createdAt: now,
      })
      .returning({ id: deliveries.id });
    await worker.sendDue();
    const row = await rowOf('no-such-channel');
    expect(row).toMatchObject({ id, state: 'failed', attempts: 1 });
    expect(row!.error).toMatch(/Unknown channel "carrier"/);
    expect(t.smtp.inbox.length).toBe(mailsBefore);
  });
});
