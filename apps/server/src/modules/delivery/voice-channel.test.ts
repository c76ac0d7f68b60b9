import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVoiceCalls, type VoiceCalls } from '../../adapters/voice-calls.ts';
import { deliveries, users } from '../../db/schema/index.ts';
import { message, render } from '../../i18n/i18n.ts';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { startVoiceApi } from '../../../test/support/voice-gateway.ts';

/**
 * The outbox's voice channel (docs/decisions/0123), told person by person (`tell`, not a fan-out): a row
 * only for whoever chose calls, the choice and the alert settings read again when it is sent, the session
 * id kept, and a dial the gateway did not answer in time counted as placed.
 */
describe('delivery: the voice channel', () => {
  let t: TestContext;
  let gateway: Awaited<ReturnType<typeof startVoiceApi>>;
  let chosen: TestUser;
  let notChosen: TestUser;
  let alertsOff: TestUser;
  let changedMind: TestUser;
  const said = message('forecast.advisory.voice', {
    crop: message('outbreak.crops.maize'),
    district: 'Bukedea',
    day: 'Tuesday',
  });
  const delivery = (calls: VoiceCalls) => testDelivery(t, { calls });
  const choose = (u: TestUser, set: Partial<typeof users.$inferInsert>) =>
    t.deps.database.db.update(users).set(set).where(eq(users.id, u.id));
  const voiceRow = async (key: string, u: TestUser) =>
    (
      await t.deps.database.db
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.channel, 'voice'), eq(deliveries.key, `${key}|${u.id}|voice`)))
    )[0];

  beforeAll(async () => {
    gateway = await startVoiceApi();
    t = await createTestApp();
    chosen = await createUser(t, 'farmer');
    notChosen = await createUser(t, 'farmer');
    alertsOff = await createUser(t, 'farmer');
    changedMind = await createUser(t, 'farmer');
    await choose(chosen, { voiceWarnings: true });
    await choose(alertsOff, { voiceWarnings: true, smsAlerts: false });
    await choose(changedMind, { voiceWarnings: true });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  it('calls only whoever chose it and still wants it, and keeps the call’s session id', async () => {
    const calls = createVoiceCalls({ apiUrl: gateway.url, apiKey: gateway.apiKey, username: gateway.username });
    const outbox = delivery(calls);
    await outbox.transaction(async (tx, tell) => {
      await tell(
        [chosen, notChosen, alertsOff, changedMind].map((u) => ({ to: u.id, key: 'k1', kind: 'alert', voice: said })),
      );
      // Turned off after the advisory was written, before it is sent: not called.
      await tx.update(users).set({ voiceWarnings: false }).where(eq(users.id, changedMind.id));
    });
    expect(gateway.calls.map((c) => c.to)).toEqual([chosen.phone]);
    expect(await voiceRow('k1', chosen)).toMatchObject({ state: 'sent', gatewayId: 'ATVId_1', kind: 'alert' });
    expect(await voiceRow('k1', notChosen)).toBeUndefined();
    expect(await voiceRow('k1', alertsOff)).toMatchObject({
      state: 'skipped',
      error: 'Alerts turned off by the person',
    });
    expect(await voiceRow('k1', changedMind)).toMatchObject({
      state: 'skipped',
      error: 'Calls with rust warnings not chosen',
    });
    // What the call will say, in the person's language, by its session id; another id is no advisory.
    const call = await outbox.voiceCall('ATVId_1');
    expect(call).toMatchObject({ userId: chosen.id, language: 'en' });
    expect(render('sw', call!.text)).toBe(render('sw', said));
    expect(await outbox.voiceCall('ATVId_none')).toBeUndefined();
    // A message without a voice part (an SMS, an alert to staff) makes no call.
    await outbox.tell({ to: chosen.id, key: 'k2', kind: 'alert', app: { type: 'rust_advisory', text: said } });
    expect(await voiceRow('k2', chosen)).toBeUndefined();
    expect(gateway.calls).toHaveLength(1);
  });

  it('counts a call request the gateway did not answer in time as placed, and does not dial again', async () => {
    let dialled = 0;
    const slow = createVoiceCalls({
      apiUrl: 'http://voice.invalid/call',
      fetchImpl: async () => {
        dialled++;
        throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      },
    });
    const outbox = delivery(slow);
    await outbox.tell({ to: chosen.id, key: 'k3', kind: 'alert', voice: said });
    const row = await voiceRow('k3', chosen);
    expect(row).toMatchObject({ state: 'sent', attempts: 1, gatewayId: null });
    expect(row?.error).toMatch(/did not answer the call request in time; counted as placed/);
    t.clock.advance(24 * 3_600_000);
    await outbox.sendDue();
    expect(dialled).toBe(1);
  });
});
