import { type Field, fieldsApi } from '@kutu/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';

const KAMPALA = 'UG-102';
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

  const send = (method: 'POST' | 'PATCH', url: string, who: TestUser, payload: object) =>
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
});
