import {
  DISTRICT_SETTLE_DAYS,
  extensionApi,
  type Field,
  fieldsApi,
  type HeldWalks,
  type OpenFeedGeoJson,
  outbreakApi,
} from '@kutu/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';

const KAMPALA = 'UG-102';
const KUMI = 'UG-208';
const BUKEDEA = 'UG-219';
const WAKISO = 'UG-113';
const NAIROBI = 'KE-30';
/** A point in central Nairobi and one in central Kampala. */
const IN_NAIROBI = { lat: -1.2864, lng: 36.8172 };
const IN_KAMPALA = { lat: 0.3136, lng: 32.5811 };

/** What a probe would try: a field put on a district far from its farmer (docs/decisions/0105). */
describe("a field's district: the farmer's own, a neighbour, or where its map point lies", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-11-25T08:00:00Z'));
  });
  afterAll(() => t.close());

  const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, who: TestUser, payload: object) =>
    t.app.inject({ method, url, headers: who.headers, payload });

  it('refuses a field far from its farmer with a clear 400 in the farmer’s language, unless its point is there', async () => {
    const farmer = await createUser(t, 'farmer', { district: KAMPALA });
    const far = await send('POST', fieldsApi.list, farmer, { name: 'Beans', crop: 'beans', district: NAIROBI });
    expect(far.statusCode, far.body).toBe(400);
    expect(errorOf(far).fields?.district).toMatch(/your district or one next to it/);
    // A point in Kampala does not make a Nairobi field.
    const wrongPoint = await send('POST', fieldsApi.list, farmer, {
      name: 'Beans',
      crop: 'beans',
      district: NAIROBI,
      location: IN_KAMPALA,
    });
    expect(wrongPoint.statusCode).toBe(400);
    for (const [lang, words] of [
      ['sw', /wilaya yako au iliyo jirani/],
      ['lg', /disitulikiti yo oba eri okumpi/],
    ] as const) {
      const other = await createUser(t, 'farmer', { district: KAMPALA, language: lang });
      const res = await send('POST', fieldsApi.list, other, { name: 'Beans', crop: 'beans', district: NAIROBI });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).fields?.district).toMatch(words);
    }
    // A farmer with no district of their own is asked to choose it first (or to put the field on the map).
    const homeless = await createUser(t, 'farmer');
    const none = await send('POST', fieldsApi.list, homeless, { name: 'Beans', crop: 'beans', district: NAIROBI });
    expect(none.statusCode).toBe(400);
    expect(errorOf(none).fields?.district).toMatch(/Choose your own district first/);
    // A neighbour, and a far district whose boundary holds the field's point, are accepted.
    const next = await send('POST', fieldsApi.list, farmer, { name: 'Maize', crop: 'maize', district: WAKISO });
    expect(next.statusCode, next.body).toBe(201);
    const there = await send('POST', fieldsApi.list, farmer, {
      name: 'Beans in Nairobi',
      crop: 'beans',
      district: NAIROBI,
      location: IN_NAIROBI,
    });
    expect(there.statusCode, there.body).toBe(201);
  });

  it('refuses an edit that moves a field far from its farmer, or moves its point out of a far district', async () => {
    const farmer = await createUser(t, 'farmer', { district: KAMPALA });
    const made = await send('POST', fieldsApi.list, farmer, { name: 'Home', crop: 'beans' });
    const id = made.json<Field>().id;
    const moved = await send('PATCH', fieldsApi.detailPath(id), farmer, { district: NAIROBI });
    expect(moved.statusCode, moved.body).toBe(400);
    expect(errorOf(moved).fields?.district).toMatch(/your district or one next to it/);
    const both = await send('PATCH', fieldsApi.detailPath(id), farmer, { district: NAIROBI, location: IN_NAIROBI });
    expect(both.statusCode, both.body).toBe(200);
    const out = await send('PATCH', fieldsApi.detailPath(id), farmer, { location: IN_KAMPALA });
    expect(out.statusCode, out.body).toBe(400);
  });
  /** The open feed's beans weeks of a district: [fields walked, median incidence] each. */
  const feedOf = async (code: string) => {
    const geo = (await t.app.inject({ method: 'GET', url: outbreakApi.openGeoJson, query: { crop: 'beans' } })).json();
    const f = (geo as OpenFeedGeoJson).features.find((x) => x.properties.code === code);
    return f?.properties.weeks.map((w) => [w.fields_walked.count, w.median_incidence]) ?? [];
  };
  const beansWalked = async (who: TestUser, rust: number, extra: object = {}) => {
    const made = await send('POST', fieldsApi.list, who, { name: 'Beans', crop: 'beans', ...extra });
    expect(made.statusCode, made.body).toBe(201);
    const walk = await send('POST', fieldsApi.walksPath(made.json<Field>().id), who, { stops: [{ looked: 50, rust }] });
    expect(walk.statusCode, walk.body).toBe(201);
    return walk.json<{ id: number }>().id;
  };
  const held = async (who: TestUser, code: string) => {
    const res = await t.app.inject({ method: 'GET', url: extensionApi.heldWalksPath(code), headers: who.headers });
    return {
      status: res.statusCode,
      ids: res.statusCode === 200 ? res.json<HeldWalks>().results.map((w) => w.id) : [],
    };
  };
  const confirm = (who: TestUser, id: number) =>
    t.app.inject({ method: 'POST', url: extensionApi.confirmWalkPath(id), headers: who.headers });

  it('counts the walks of a field far from its farmer only once an expert confirms them', async () => {
    const expert = await createUser(t, 'expert');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const farmer = await createUser(t, 'farmer', { district: KAMPALA });
      ids.push(await beansWalked(farmer, 50, { district: NAIROBI, location: IN_NAIROBI }));
    }
    // Three farmers of Kampala, 100 % rust on Nairobi: nothing published until confirmed.
    expect(await feedOf(NAIROBI)).toEqual([]);
    expect((await held(expert, NAIROBI)).ids).toEqual(ids);
    const officer = await createUser(t, 'officer', { districts: [KUMI] });
    expect((await held(officer, NAIROBI)).status).toBe(403);
    expect((await confirm(officer, ids[0])).statusCode).toBe(403);
    for (const id of ids) expect((await confirm(expert, id)).statusCode).toBe(204);
    expect(await feedOf(NAIROBI)).toEqual([[3, 1]]);
    expect((await held(expert, NAIROBI)).ids).toEqual([]);
  });

  it('does not unhold a far field when its farmer changes their own district: a change counts only after DISTRICT_SETTLE_DAYS', async () => {
    const expert = await createUser(t, 'expert');
    const farmer = await createUser(t, 'farmer', { district: KAMPALA });
    const made = await send('POST', fieldsApi.list, farmer, {
      name: 'Far beans',
      crop: 'beans',
      district: NAIROBI,
      location: IN_NAIROBI,
    });
    const fieldId = made.json<Field>().id;
    const walk = async () => {
      const res = await send('POST', fieldsApi.walksPath(fieldId), farmer, { stops: [{ looked: 50, rust: 50 }] });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: number }>().id;
    };
    const first = await walk();
    expect((await held(expert, NAIROBI)).ids).toContain(first);
    // The farmer says Nairobi is now their own district: the next walk still waits.
    const moved = await send('PUT', outbreakApi.settings, farmer, { district: NAIROBI });
    expect(moved.statusCode, moved.body).toBe(200);
    const second = await walk();
    expect((await held(expert, NAIROBI)).ids).toEqual(expect.arrayContaining([first, second]));
    // Changing again, and back, does not shorten the wait.
    t.clock.advance((DISTRICT_SETTLE_DAYS - 1) * 86_400_000);
    expect((await send('PUT', outbreakApi.settings, farmer, { district: WAKISO })).statusCode).toBe(200);
    expect((await send('PUT', outbreakApi.settings, farmer, { district: NAIROBI })).statusCode).toBe(200);
    t.clock.advance(2 * 86_400_000);
    const third = await walk();
    expect((await held(expert, NAIROBI)).ids).toContain(third);
    // Once an expert confirmed the far walks and the change has settled, the field is the farmer's own.
    for (const id of [first, second, third]) expect((await confirm(expert, id)).statusCode).toBe(204);
    t.clock.advance(DISTRICT_SETTLE_DAYS * 86_400_000);
    const settled = await walk();
    expect((await held(expert, NAIROBI)).ids).not.toContain(settled);
  });

  it('holds a walk far from what the district’s other farmers saw in the last 14 days until an officer confirms it', async () => {
    const officer = await createUser(t, 'officer', { districts: [KUMI] });
    const farmer = async () => createUser(t, 'farmer', { district: KUMI });
    // Three farmers see rust on 5, 5 and 6 of 50 plants: 16 of 150, about 11 %.
    for (const rust of [5, 5, 6]) await beansWalked(await farmer(), rust);
    expect(await feedOf(KUMI)).toEqual([[3, 0.1]]);
    // A fourth says 50 of 50: its interval meets none of the three fields' intervals: held. A fifth says 8 of 50: counts.
    const far = await beansWalked(await farmer(), 50);
    await beansWalked(await farmer(), 8);
    expect(await feedOf(KUMI)).toEqual([[4, 0.11]]);
    expect((await held(officer, KUMI)).ids).toEqual([far]);
    expect((await held(officer, BUKEDEA)).status).toBe(403);
    expect((await confirm(officer, far)).statusCode).toBe(204);
    expect(await feedOf(KUMI)).toEqual([[5, 0.12]]);
    // With fewer than three other farmers behind them, no walk is called far (Bukedea: two, then 50 of 50).
    await beansWalked(await createUser(t, 'farmer', { district: BUKEDEA }), 1);
    await beansWalked(await createUser(t, 'farmer', { district: BUKEDEA }), 1);
    await beansWalked(await createUser(t, 'farmer', { district: BUKEDEA }), 50);
    expect(await feedOf(BUKEDEA)).toEqual([[3, 0.02]]);
  });
});
