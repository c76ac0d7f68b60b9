import { describe, expect, it, afterAll, beforeAll, beforeEach } from 'vitest';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createMemoryCoordinator } from '../../adapters/coordinator.ts';
import { createListCaches } from '../../lib/list-cache.ts';
import { weeklySlotTimes } from './availability.ts';
import { createAvailabilityService } from './availability.service.ts';
import { consultationsApi } from '@kutu/contract';

const RULES = consultationsApi.rules;
const SLOTS = consultationsApi.slots;
const END_RULE = (id: number) => consultationsApi.endRule(id);

/** Monday 1 March 2027, 08:00 East Africa Time. */
const NOW = new Date('2027-03-01T05:00:00Z');

describe('weekly slot times (East Africa Time, no daylight saving)', () => {
  const rule = { weekdays: [1, 3], startMinute: 9 * 60, endMinute: 11 * 60, slotMinutes: 30 };

  it('makes whole slots between the hours on the chosen EAT weekdays, stored in UTC', () => {
    const slots = weeklySlotTimes(rule, NOW, new Date('2027-03-04T00:00:00Z'));
    expect(slots.map((s) => s.start.toISOString())).toEqual([
      // Monday 1 March 09:00–10:30 EAT = 06:00–07:30 UTC
      '2027-03-01T06:00:00.000Z',
      '2027-03-01T06:30:00.000Z',
      '2027-03-01T07:00:00.000Z',
      '2027-03-01T07:30:00.000Z',
      // Wednesday 3 March
      '2027-03-03T06:00:00.000Z',
      '2027-03-03T06:30:00.000Z',
      '2027-03-03T07:00:00.000Z',
      '2027-03-03T07:30:00.000Z',
    ]);
    expect(slots[3].end.toISOString()).toBe('2027-03-01T08:00:00.000Z');
  });

  it('uses the EAT weekday, not the UTC one, for early-morning hours', () => {
    // 01:00–02:00 EAT on a Monday is 22:00–23:00 UTC on the Sunday before.
    const early = weeklySlotTimes(
      { weekdays: [1], startMinute: 60, endMinute: 120, slotMinutes: 60 },
      new Date('2027-02-27T00:00:00Z'),
      new Date('2027-03-02T00:00:00Z'),
    );
    expect(early.map((s) => s.start.toISOString())).toEqual(['2027-02-28T22:00:00.000Z']);
  });

  it('keeps the same UTC time across the dates when Europe and America change their clocks', () => {
    const spring = weeklySlotTimes(rule, new Date('2027-03-27T00:00:00Z'), new Date('2027-04-01T00:00:00Z'));
    const autumn = weeklySlotTimes(rule, new Date('2027-10-30T00:00:00Z'), new Date('2027-11-04T00:00:00Z'));
    for (const s of [...spring, ...autumn]) expect(s.start.getUTCHours()).toBeGreaterThanOrEqual(6);
    for (const s of [...spring, ...autumn]) expect(s.start.getUTCHours()).toBeLessThan(8);
    expect(spring[0].start.toISOString()).toBe('2027-03-29T06:00:00.000Z');
  });

  it('leaves out a last piece shorter than a slot and slots already started', () => {
    const slots = weeklySlotTimes(
      { weekdays: [1], startMinute: 9 * 60, endMinute: 10 * 60 + 40, slotMinutes: 45 },
      new Date('2027-03-01T06:10:00Z'),
      new Date('2027-03-02T00:00:00Z'),
    );
    expect(slots.map((s) => s.start.toISOString())).toEqual(['2027-03-01T06:45:00.000Z']);
  });
});

describe('weekly availability API', () => {
  let t: TestContext;
  let expert: TestUser;
  let farmer: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(NOW);
    expert = await createUser(t, 'expert');
  });

  const post = (url: string, user: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: user.headers, payload });
  const mySlots = async (user: TestUser) =>
    (await t.app.inject({ method: 'GET', url: `${SLOTS}?page_size=100`, headers: user.headers })).json() as {
      count: number;
      results: { start_time: string; mode: string; place: string | null; rule_id: number | null; is_active: boolean }[];
    };

  it('generates phone-call slots for the next 4 weeks and lists the rule', async () => {
    const res = await post(RULES, expert, {
      weekdays: ['2', '4'],
      start_time: '09:00',
      end_time: '11:00',
      slot_minutes: '60',
      mode: 'phone',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    // Tuesdays and Thursdays in 28 days from Monday 1 March: 8 days, 2 slots each.
    expect(body.created).toBe(16);
    expect(body.skipped).toEqual([]);
    expect(body.message).toBe('Weekly availability saved: 16 slots for the next 4 weeks.');
    const slots = await mySlots(expert);
    expect(slots.count).toBe(16);
    expect(slots.results[0]).toMatchObject({
      start_time: '2027-03-02T06:00:00.000Z',
      mode: 'phone',
      rule_id: body.rule.id,
    });
    const rules = await t.app.inject({ method: 'GET', url: RULES, headers: expert.headers });
    expect(rules.json().results).toEqual([
      expect.objectContaining({ weekdays: [2, 4], start_time: '09:00', end_time: '11:00', slot_minutes: 60 }),
    ]);
  });

  it('skips slots that overlap a one-off slot, with a clear message, and makes the rest', async () => {
    const oneOff = await post(SLOTS, expert, { start_time: '2027-03-02 09:30', end_time: '2027-03-02 10:15' });
    expect(oneOff.statusCode, oneOff.body).toBe(201);
    const res = await post(RULES, expert, {
      weekdays: [2],
      start_time: '09:00',
      end_time: '11:00',
      slot_minutes: 30,
      mode: 'farm_visit',
      place: 'Bukedea market',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    // 4 Tuesdays × 4 slots, less 09:30 and 10:00 on 2 March (09:00–09:30 only touches the one-off slot).
    expect(body.created).toBe(14);
    expect(body.skipped.map((s: { start_time: string }) => s.start_time)).toEqual([
      '2027-03-02T06:30:00.000Z',
      '2027-03-02T07:00:00.000Z',
    ]);
    expect(body.skipped[0].message).toBe(
      'Tue, 2 Mar 2027, 09:30 EAT overlaps your slot from Tue, 2 Mar 2027, 09:30 EAT to Tue, 2 Mar 2027, 10:15 EAT',
    );
    expect(body.message).toContain('2 not made because they overlap your other slots');
    const generated = (await mySlots(expert)).results.filter((s) => s.rule_id === body.rule.id);
    expect(generated[0]).toMatchObject({ mode: 'farm_visit', place: 'Bukedea market' });
    // A one-off slot inside a generated one is refused in turn.
    const clash = await post(SLOTS, expert, { start_time: '2027-03-09 09:10', end_time: '2027-03-09 09:20' });
    expect(clash.statusCode).toBe(400);
  });

  it('is idempotent: the upkeep job only adds days entering the window and never remakes a deactivated slot', async () => {
    const res = await post(RULES, expert, {
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      start_time: '14:00',
      end_time: '15:00',
      slot_minutes: 60,
      mode: 'phone',
    });
    expect(res.json().created).toBe(28);
    const first = (await mySlots(expert)).results[0];
    const slotList = await t.app.inject({ method: 'GET', url: `${SLOTS}?page_size=1`, headers: expert.headers });
    const firstId = slotList.json().results[0].id as number;
    const off = await t.app.inject({ method: 'PUT', url: `${SLOTS}end/${firstId}/`, headers: expert.headers });
    expect(off.statusCode, off.body).toBe(200);

    // Two upkeep runs the same day add nothing; the deactivated slot stays deactivated.
    const db = t.deps.database.db;
    const service = createAvailabilityService({
      ...t.deps,
      db,
      delivery: testDelivery(t),
      lists: createListCaches(createMemoryCoordinator(), t.clock),
    });
    expect(await service.topUp()).toBe(0);
    expect(await service.topUp()).toBe(0);
    let slots = await mySlots(expert);
    expect(slots.count).toBe(28);
    expect(slots.results.find((s) => s.start_time === first.start_time)?.is_active).toBe(false);

    // Three days later the window has moved: three more days are added (other tests' rules add theirs), once.
    t.clock.advance(3 * 24 * 3600_000);
    expect(await service.topUp()).toBeGreaterThanOrEqual(3);
    expect(await service.topUp()).toBe(0);
    slots = await mySlots(expert);
    expect(slots.count).toBe(31);
  });

  it('stops a rule: its free future slots go, a booked one stays', async () => {
    const res = await post(RULES, expert, {
      weekdays: [3],
      start_time: '10:00',
      end_time: '11:00',
      slot_minutes: 60,
      mode: 'video',
      video_url: 'https://meet.example.org/kutu',
    });
    expect(res.statusCode, res.body).toBe(201);
    const ruleId = res.json().rule.id as number;
    const slots = (await mySlots(expert)).results as unknown as { id: number }[];
    const book = await post(consultationsApi.bookings, farmer, {
      slot_id: slots[0].id,
      topic: 'Rust on beans',
    });
    expect(book.statusCode, book.body).toBe(201);
    const other = await createUser(t, 'expert');
    expect((await t.app.inject({ method: 'PUT', url: END_RULE(ruleId), headers: other.headers })).statusCode).toBe(404);
    const end = await t.app.inject({ method: 'PUT', url: END_RULE(ruleId), headers: expert.headers });
    expect(end.statusCode, end.body).toBe(200);
    expect(end.json().message).toBe('Weekly availability stopped; 3 free future slots removed. Booked slots stay.');
    const after = await mySlots(expert);
    expect(after.results.filter((s) => s.is_active)).toHaveLength(1);
    const rules = await t.app.inject({ method: 'GET', url: RULES, headers: expert.headers });
    expect(rules.json().results).toEqual([]);
  });

  it('answers a Kiswahili expert in Kiswahili, whatever the browser asks', async () => {
    const swahili = await createUser(t, 'expert', { language: 'sw' });
    const headers = { ...swahili.headers, 'accept-language': 'en' };
    await post(SLOTS, swahili, { start_time: '2027-03-02 09:30', end_time: '2027-03-02 10:15' });
    const res = await t.app.inject({
      method: 'POST',
      url: RULES,
      headers,
      payload: { weekdays: [2], start_time: '09:00', end_time: '11:00', slot_minutes: 30, mode: 'phone' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.message).toMatch(
      /^Nafasi za kila wiki zimehifadhiwa: nafasi 14 kwa wiki 4 zijazo\. Nafasi 2 hazikuwekwa kwa sababu zinaingiliana na nafasi zako nyingine \(ya kwanza: .+ inaingiliana na nafasi yako ya muda kuanzia .+ EAT hadi .+ EAT\)\.$/,
    );
    expect(body.skipped[0].message).toMatch(/ EAT inaingiliana na nafasi yako ya muda kuanzia .+ EAT hadi .+ EAT$/);
    const end = await t.app.inject({ method: 'PUT', url: END_RULE(body.rule.id), headers });
    expect(end.json().message).toBe(
      'Nafasi za kila wiki zimesitishwa; nafasi 14 zilizo wazi za baadaye zimeondolewa. Nafasi zenye miadi zinabaki.',
    );
  });

  it('refuses bad rules field by field, and farmers entirely', async () => {
    const bad = await post(RULES, expert, {
      weekdays: [],
      start_time: '11:00',
      end_time: '10:00',
      slot_minutes: 25,
      mode: 'video',
      video_url: 'http://x',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      weekdays: 'Choose at least one day',
      slot_minutes: 'Choose a slot length',
      video_url: 'Give the video call link, starting with https://',
      end_time: 'Until must be after From',
    });
    const visit = await post(RULES, expert, {
      weekdays: [1],
      start_time: '09:00',
      end_time: '10:00',
      slot_minutes: 60,
      mode: 'farm_visit',
    });
    expect(visit.json().error.fields.place).toBe('Say where the farm visit happens');
    const asFarmer = await post(RULES, farmer, {
      weekdays: [1],
      start_time: '09:00',
      end_time: '10:00',
      slot_minutes: 60,
    });
    expect(asFarmer.statusCode).toBe(403);
  });
});
