import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { phoneApi } from '@kutu/contract';
import { fields, followUps, scoutingWalks } from '../../db/schema/index.ts';
import { createTestApp, joinSmsParts, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { createUser } from '../../../test/support/users.ts';
import { insertField } from '../../../test/support/fields.ts';
import { createFieldsService } from '../fields/fields.service.ts';
import { createFollowUpService } from '../followup/followup.service.ts';
import { createEscalationService } from '../review/escalation.service.ts';
import { fieldPhotoSql, followUpSources } from '../../ports.ts';

const KEY = 'gateway-secret-for-the-fields-tests';
const DISTRICT = 'UG-105';
let session = 0;

/*
 * A farmer's fields and walks on a basic phone (docs/decisions/0078), through the gateway's real routes: the
 * USSD menu ("8 My fields": add a field, walk it) and the SMS keywords (FIELDS, WALK), each answered with
 * the walk's advice; replays record nothing twice, and the walk's reminder asks by phone.
 */
describe('fields and walks by USSD and SMS', () => {
  let t: TestContext;
  const db = () => t.deps.database.db;

  beforeAll(async () => {
    t = await createTestApp({ env: { AT_CALLBACK_SECRET: KEY, PHONE_RATE_LIMIT_MAX: '10000' } });
  });
  beforeEach(() => t.clock.set(new Date('2026-11-20T08:00:00Z')));
  afterAll(() => t.close());

  async function dial(phone: string, text: string, sessionId: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `${phoneApi.ussd}?key=${KEY}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ sessionId, serviceCode: '*384*46#', phoneNumber: phone, text }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return { screen: res.body.slice(4), end: res.body.startsWith('END') };
  }
  /** A whole session, every answer typed in turn; the last screen. */
  async function session_(phone: string, answers: string[]) {
    session += 1;
    let last = await dial(phone, '', `f${session}`);
    for (let i = 1; i <= answers.length; i++) last = await dial(phone, answers.slice(0, i).join('*'), `f${session}`);
    return last;
  }
  const inbound = (from: string, text: string, id = `m${Math.random()}`) =>
    t.app.inject({
      method: 'POST',
      url: `${phoneApi.sms}?key=${KEY}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ from, to: '12345', text, id }).toString(),
    });
  /** The last SMS to a number, its parts joined. */
  const lastSms = (to: string) =>
    joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === to))[0]?.text ?? '';
  const walksOf = (userId: number) =>
    db().select().from(scoutingWalks).where(eq(scoutingWalks.userId, userId)).orderBy(scoutingWalks.id);

  it('adds a field by USSD, named by its number, dated from the weeks since planting, in the account’s district', async () => {
    const farmer = await createUser(t, 'farmer', { district: DISTRICT });
    expect((await session_(farmer.phone, ['8'])).screen).toContain('You have no field yet.\n99 Add a field');
    const done = await session_(farmer.phone, ['8', '99', '1', '1', '1', '8']);
    expect(done).toEqual({
      screen: 'Field 1 (maize) is saved. To walk it, dial *384*123# and choose 8 My fields.',
      end: true,
    });
    const [field] = await db().select().from(fields).where(eq(fields.userId, farmer.id));
    // 8 weeks before 20 November 2026 (East Africa).
    expect(field).toMatchObject({ name: 'Field 1', crop: 'maize', district: DISTRICT, plantedOn: '2026-09-25' });
    // A name typed, and a planting month: March is this year's.
    // A name of its own is told the number the list shows it under.
    expect((await session_(farmer.phone, ['8', '99', 'Near the river', '2', '2', '3'])).screen).toMatch(
      /^Near the river \(beans\) is saved as field 2\./,
    );
    const list = (await session_(farmer.phone, ['8'])).screen;
    expect(list).toContain('1. Field 1 (maize)\n2. Near the river (beans)\n99 Add a field');
    const [second] = await db()
      .select()
      .from(fields)
      .where(and(eq(fields.userId, farmer.id), eq(fields.number, 2)));
    expect(second.plantedOn).toBe('2026-03-15');
    // The same name again is refused in words, not saved twice.
    expect((await session_(farmer.phone, ['8', '99', 'near the river', '1', '2', '3'])).screen).toContain(
      'You have a field called near the river already',
    );
    // Without a district there is nowhere to put a field: the menu says where to choose one.
    const nowhere = await createUser(t, 'farmer');
    expect((await session_(nowhere.phone, ['8', '99'])).screen).toBe(
      'Choose your district first (menu 7), then add a field.',
    );
  });

  it('walks a field by USSD: 20 of 50 plants asks for a spray, 2 of 50 a week later does not and is better', async () => {
    const farmer = await createUser(t, 'farmer', { district: DISTRICT });
    await session_(farmer.phone, ['8', '99', 'Hill', '1', '1', '8']);
    expect((await session_(farmer.phone, ['8', '1'])).screen).toContain('How many plants did you look at? (1 to 1000)');
    const first = await session_(farmer.phone, ['8', '1', '50', '20']);
    expect(first).toEqual({
      screen:
        'Rust on 20 of 50 plants, maize at 8 weeks.\nA rust fungicide can pay now (ask an agro-dealer).\nFirst walk of this field.',
      end: true,
    });
    t.clock.set(new Date('2026-11-27T08:00:00Z'));
    const second = await session_(farmer.phone, ['8', '1', '50', '2']);
    expect(second.screen).toBe(
      'Rust on 2 of 50 plants, maize at 9 weeks.\nWalk it again within a week.\nBetter than on 20/11 (20 of 50).',
    );
    const walks = await walksOf(farmer.id);
    expect(walks.map((w) => [w.channel, w.plantsLooked, w.plantsRust, w.adviceRule])).toEqual([
      ['ussd', 50, 20, 'maize.spray'],
      ['ussd', 50, 2, 'maize.watch'],
    ]);
  });

  it('records a replayed USSD walk once, and takes 0 plants with rust as a count', async () => {
    const farmer = await createUser(t, 'farmer', { district: DISTRICT });
    await insertField(db(), farmer.id, 'beans', { number: 1, plantedOn: '2026-10-10' });
    for (const text of ['', '8', '8*1', '8*1*40']) await dial(farmer.phone, text, 'replayed-walk');
    const done = await dial(farmer.phone, '8*1*40*0', 'replayed-walk');
    expect(done.screen).toContain('Rust on 0 of 40 plants, beans at 5 weeks.');
    // The gateway sends the last request again: the same reply, no second walk.
    expect(await dial(farmer.phone, '8*1*40*0', 'replayed-walk')).toEqual(done);
    expect(await walksOf(farmer.id)).toHaveLength(1);
  });

  it('asks a field without a planting date for one on the way to its walk, and saves it', async () => {
    const farmer = await createUser(t, 'farmer', { district: DISTRICT });
    const field = await insertField(db(), farmer.id, 'beans', { number: 1 });
    expect((await session_(farmer.phone, ['8', '1'])).screen).toContain('When was');
    const done = await session_(farmer.phone, ['8', '1', '1', '3', '50', '10']);
    expect(done.screen).toContain('Rust on 10 of 50 plants, beans at 3 weeks.\nSpray a rust fungicide now');
    const [saved] = await db().select().from(fields).where(eq(fields.id, field.id));
    expect(saved.plantedOn).toBe('2026-10-30');
    // "I do not know" walks it all the same, and the answer says the date is not known.
    const other = await createUser(t, 'farmer', { district: DISTRICT });
    await insertField(db(), other.id, 'maize', { number: 1 });
    expect((await session_(other.phone, ['8', '1', '3', '20', '1'])).screen).toContain(
      'Rust on 1 of 20 plants, maize, planting date not known.',
    );
  });

  it('asks for the next walk of a field walked by phone by USSD and SMS, not by a web link', async () => {
    const farmer = await createUser(t, 'farmer', { district: DISTRICT });
    await insertField(db(), farmer.id, 'beans', { number: 3, plantedOn: '2026-10-10' });
    await session_(farmer.phone, ['8', '3', '50', '5']);
    const [reminder] = await db().select().from(followUps).where(eq(followUps.userId, farmer.id));
    expect(reminder).toMatchObject({ state: 'waiting', byUssd: true, analysisId: null });
    t.clock.set(new Date(reminder.dueAt.getTime() + 60_000));
    const sweeper = createFollowUpService(
      { db: db(), clock: t.clock, delivery: testDelivery(t), config: t.deps.config },
      createEscalationService(db()),
      createFieldsService({ db: db(), clock: t.clock }, fieldPhotoSql),
      followUpSources,
    );
    expect(await sweeper.sendDue()).toBeGreaterThan(0);
    expect(lastSms(farmer.phone)).toBe(
      'Kutu: time to walk your bean field (no. 3) again. Count plants with rust, then dial *384*123# (menu 8) or send WALK 3 3/50 (rust/looked at).',
    );
  });

  it('lists the fields and records a walk by SMS, rust first, once per message; counts the other way round are refused, not swapped', async () => {
    const farmer = await createUser(t, 'farmer', { district: DISTRICT });
    await insertField(db(), farmer.id, 'maize', { number: 1, name: 'Hill', plantedOn: '2026-09-25' });
    await insertField(db(), farmer.id, 'beans', { number: 4, name: 'Swamp ✿', plantedOn: '2026-10-10' });
    await inbound(farmer.phone, 'fields');
    expect(lastSms(farmer.phone)).toBe(
      'Kutu, your fields: 1 Hill (maize), 4 Swamp (beans). To record a walk send WALK, the number, plants with rust/looked at: WALK 1 14/50',
    );
    expect((await inbound(farmer.phone, 'Walk 1 14/50', 'gw-1')).statusCode).toBe(200);
    expect(lastSms(farmer.phone)).toBe(
      // 28 % of the plants, but 17 % to 42 %: near maize's 25 %, not shown past it.
      'Kutu: rust on 14 of 50 plants, maize at 8 weeks. Near spray level: walk it again in a week first. First walk of this field.',
    );
    // The gateway posts the same message again: one walk, one reply.
    const sent = t.outbox.list().length;
    await inbound(farmer.phone, 'Walk 1 14/50', 'gw-1');
    expect(t.outbox.list()).toHaveLength(sent);
    // With spaces: plants with rust, then plants looked at.
    await inbound(farmer.phone, 'WALK 4 2 50', 'gw-2');
    expect(lastSms(farmer.phone)).toContain('Kutu: rust on 2 of 50 plants, beans at 5 weeks. Pick off leaves');
    // More with rust than looked at (once recorded as 50 of 60), or none looked at (once 0 of 3): refused.
    await inbound(farmer.phone, 'WALK 1 60/50', 'gw-3');
    expect(lastSms(farmer.phone)).toBe(
      'Kutu: not recorded. Plants with rust (60) cannot be more than plants looked at (50). Send rust first, e.g. WALK 1 14/50.',
    );
    await inbound(farmer.phone, 'WALK 4 50 2', 'gw-4');
    expect(lastSms(farmer.phone)).toContain('Plants with rust (50) cannot be more than plants looked at (2)');
    await inbound(farmer.phone, 'WALK 4 3/0', 'gw-5');
    expect(lastSms(farmer.phone)).toContain('Kutu: to record a walk, send WALK');
    const walks = await walksOf(farmer.id);
    expect(walks.map((w) => [w.channel, w.plantsRust, w.plantsLooked])).toEqual([
      ['sms', 14, 50],
      ['sms', 2, 50],
    ]);
  });

  it('answers a walk SMS it cannot read with how to write it, and a field number the farmer has not', async () => {
    const farmer = await createUser(t, 'farmer', { district: DISTRICT, language: 'sw' });
    await inbound(farmer.phone, 'TEMBEA 1 3/50');
    expect(lastSms(farmer.phone)).toBe('Kutu: bado huna shamba. Piga *384*123# uchague 8 Mashamba yangu kuongeza.');
    await insertField(db(), farmer.id, 'maize', { number: 1 });
    await insertField(db(), farmer.id, 'beans', { number: 2 });
    const how =
      'Kutu: kurekodi matembezi tuma TEMBEA, namba ya shamba, mimea yenye kutu na mimea uliyoangalia, mfano TEMBEA 1 14/50. Tuma MASHAMBA kwa mashamba yako.';
    // Two numbers without "/" could be a field and one count; "3/50" alone needs the farmer's only field.
    // A sign or a decimal point is no count: "-3/5" was once read as 3 of 5.
    const signed = ['WALK 1 -3/5', 'TEMBEA 1 3/-5', 'TEMBEA 1 +3/5', 'TEMBEA 1 3.5/5', 'TEMBEA 1 3,5 5'];
    for (const text of [
      'TEMBEA',
      'tembea 1 3',
      'TEMBEA 3/50',
      'WALK 1 0/0',
      'WALK 1 3/5000',
      'TEMBEA 1/3/50',
      ...signed,
    ]) {
      await inbound(farmer.phone, text);
      expect(lastSms(farmer.phone), text).toBe(how);
    }
    await inbound(farmer.phone, 'TEMBEA 7 3/50');
    expect(lastSms(farmer.phone)).toBe('Kutu: huna shamba namba 7. Tuma MASHAMBA kwa mashamba yako na namba zake.');
    expect(await walksOf(farmer.id)).toHaveLength(0);
  });
});
