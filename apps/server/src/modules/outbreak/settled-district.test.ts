import {
  DISTRICT_SETTLE_DAYS,
  type DistrictForecastReply,
  extensionApi,
  type Field,
  fieldsApi,
  forecastApi,
  type HeldWalks,
  outbreakApi,
  reviewApi,
} from '@kutu/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { fixture, insertRustPhoto } from '../../../test/support/photos.ts';
import { outbreakSources } from '../../ports.ts';
import { recountAll } from './outbreak.repo.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';

const KAMPALA = 'UG-102';
const NAIROBI = 'KE-30';
const IN_NAIROBI = { lat: -1.2864, lng: 36.8172 };
const DAY = 86_400_000;

/**
 * A photo case counts at the district its farmer had settled in when the photo was taken (docs/decisions/0137):
 * a changed district counts for surveillance only DISTRICT_SETTLE_DAYS after the change, for photos as for
 * walks (0127), so naming a far field's district as one's own does not make rust near there the next day.
 */
describe('photo cases at the settled district', () => {
  let t: TestContext;
  let expert: TestUser;
  let admin: TestUser;
  let photoKey: string;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-11-25T08:00:00Z'));
    expert = await createUser(t, 'expert');
    admin = await createUser(t, 'admin');
    photoKey = await t.deps.storage.put('analyses/test', fixture('maize-common-rust.jpg'), 'jpg');
  });
  afterAll(() => t.close());

  const send = (method: 'POST' | 'PUT', url: string, who: TestUser, payload: object) =>
    t.app.inject({ method, url, headers: who.headers, payload });

  /** A maize photo the model called rust, taken now, that an expert then confirmed (the review counts it). */
  async function confirmedRustPhoto(owner: TestUser) {
    const id = await insertRustPhoto(t.deps.database.db, owner.id, photoKey, t.clock.now());
    const verdict = await send('PUT', reviewApi.reviewPath(id), expert, { verdict: 'common_rust' });
    expect(verdict.statusCode, verdict.body).toBeLessThan(300);
    return id;
  }
  /** Maize farmer-weeks confirmed in a district, as the forecast's rust near reads them. */
  async function confirmedIn(district: string) {
    const res = await t.deps.database.db.execute(
      sql`select coalesce(sum(confirmed), 0)::int as n from outbreak_counts where district = ${district} and crop = 'maize'`,
    );
    return Number((res.rows[0] as { n: number }).n);
  }
  /** Whether the latest run saw rust near in the district (here, unnamed below the small-count rule). */
  async function rustNearIn(district: string) {
    const ran = await send('POST', forecastApi.run, admin, {});
    expect(ran.statusCode, ran.body).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: forecastApi.districtPath(district),
      query: { crop: 'maize' },
      headers: expert.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DistrictForecastReply>().days[0]?.basis.unnamed_near;
  }

  it('does not count a rust photo in the new district the day after a farmer whose far field is held names it their own', async () => {
    const farmer = await createUser(t, 'farmer', { district: KAMPALA });
    const made = await send('POST', fieldsApi.list, farmer, {
      name: 'Far maize',
      crop: 'maize',
      district: NAIROBI,
      location: IN_NAIROBI,
    });
    expect(made.statusCode, made.body).toBe(201);
    const walk = await send('POST', fieldsApi.walksPath(made.json<Field>().id), farmer, {
      stops: [{ looked: 50, rust: 50 }],
    });
    expect(walk.statusCode, walk.body).toBe(201);
    const held = await t.app.inject({
      method: 'GET',
      url: extensionApi.heldWalksPath(NAIROBI),
      headers: expert.headers,
    });
    expect(held.json<HeldWalks>().results.map((w) => w.id)).toContain(walk.json<{ id: number }>().id);

    // The farmer says Nairobi is now their district, and the next day photographs rust an expert confirms.
    expect((await send('PUT', outbreakApi.settings, farmer, { district: NAIROBI })).statusCode).toBe(200);
    t.clock.advance(DAY);
    const first = await confirmedRustPhoto(farmer);
    // It counts where the farmer had settled, Kampala: no rust near in Nairobi from it.
    expect(await confirmedIn(NAIROBI)).toBe(0);
    expect(await confirmedIn(KAMPALA)).toBe(1);
    expect(await rustNearIn(NAIROBI)).toBe(false);
    expect(await rustNearIn(KAMPALA)).toBe(true);

    // Once the change has settled, the farmer's photos count in Nairobi.
    t.clock.advance(DISTRICT_SETTLE_DAYS * DAY);
    await confirmedRustPhoto(farmer);
    expect(await confirmedIn(NAIROBI)).toBe(1);
    expect(await rustNearIn(NAIROBI)).toBe(true);
    // The repair, recounting a case a crash left uncounted, counts it where the farmer had settled too.
    await t.deps.database.db.execute(sql`delete from outbreak_cases where analysis_id = ${first}`);
    await recountAll(t.deps.database.db, t.clock.now(), outbreakSources);
    expect([await confirmedIn(KAMPALA), await confirmedIn(NAIROBI)]).toEqual([1, 1]);
  });
});
