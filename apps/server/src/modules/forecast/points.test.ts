import { type DistrictForecastReply, forecastApi, SMALL_COUNT_MIN } from '@kutu/contract';
import { districtPoints } from '@kutu/contract/district-points';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenMeteo } from '../../adapters/weather.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { insertField } from '../../../test/support/fields.ts';
import {
  coolDewNight,
  dayAfter,
  type OpenMeteoHour,
  openMeteoReply,
  perPlace,
  startOpenMeteo,
  weatherPointsOf,
} from '../../../test/support/open-meteo.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';

// Bukedea (UG-219), next to Mbale (UG-209) where maize and bean rust are confirmed; Kampala (UG-102) is one point.
const MBALE = 'UG-209';
const BUKEDEA = 'UG-219';
const KAMPALA = 'UG-102';
const [CENTRE, WEST, NORTH_EAST] = districtPoints.get(BUKEDEA) ?? [];

/** Warm lowland: 30 °C days, 24 °C nights, never near the dew point. */
const warmDry = (time: string): OpenMeteoHour => {
  const night = Number(time.slice(11, 13)) >= 19 || Number(time.slice(11, 13)) < 7;
  return {
    temperature_2m: night ? 24 : 30,
    relative_humidity_2m: night ? 62 : 40,
    dew_point_2m: night ? 16 : 15,
    precipitation: 0,
    wind_speed_10m: 10,
    wind_direction_10m: 95,
  };
};

describe('a district judged at its points, not at its centre alone (docs/decisions/0134)', () => {
  let t: TestContext;
  let stub: Awaited<ReturnType<typeof startOpenMeteo>>;
  let admin: TestUser;
  let expert: TestUser;
  let farmer: TestUser;
  /** The place with cool dew nights (none: dry everywhere), and the places whose replies are wrong. */
  let wetAt: readonly [number, number] | null = null;
  let refused: (readonly [number, number])[] = [];
  const at = (p: { lat: number; lng: number }, q?: readonly [number, number] | null) =>
    !!q && p.lat === q[0] && p.lng === q[1];

  beforeAll(async () => {
    // The service's today (East Africa Time) moves with the test's clock.
    const today = () => new Date(t.clock.now().getTime() + 3 * 3_600_000).toISOString().slice(0, 10);
    stub = await startOpenMeteo((q) =>
      perPlace(q, (p) => {
        const args = [p, dayAfter(today(), -q.pastDays), (q.pastDays + q.forecastDays) * 24] as const;
        if (refused.some((r) => at(p, r))) return { ...openMeteoReply(...args, warmDry), utc_offset_seconds: 0 };
        return at(p, wetAt) ? openMeteoReply(...args, coolDewNight, 2104.6) : openMeteoReply(...args, warmDry, 1050);
      }),
    );
    t = await createTestApp({
      env: { ADVISORY_SEND_HOUR: '6' }, // advisories go at the run, 06:00 EAT (docs/decisions/0128)
      weather: createOpenMeteo({ url: stub.url, timeoutMs: 10_000 }),
      weatherPoints: weatherPointsOf(BUKEDEA, KAMPALA),
    });
    t.clock.set(new Date('2026-12-01T03:00:00Z')); // 06:00 EAT, Tuesday
    const db = t.deps.database.db;
    admin = await createUser(t, 'admin');
    expert = await createUser(t, 'expert', { district: BUKEDEA });
    farmer = await createUser(t, 'farmer');
    await insertField(db, farmer.id, 'maize', { district: BUKEDEA });
    await db.execute(
      sql`insert into outbreak_counts (district, crop, week_start, demo, confirmed) values (${MBALE}, 'maize', '2026-11-30', false, ${SMALL_COUNT_MIN})`,
    );
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => stub.server.close(r));
  });

  const run = async () => {
    const res = await t.app.inject({ method: 'POST', url: forecastApi.run, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
  };
  const maize = async (code: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${forecastApi.districtPath(code)}?crop=maize`,
      headers: expert.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DistrictForecastReply>();
  };
  const sms = () => t.outbox.list().filter((e) => e.channel === 'sms' && e.to === farmer.phone);

  it('has a centre and points to the west and north-east to read Bukedea at', () => {
    expect(CENTRE).toEqual([1.35, 34.12]);
    expect(WEST).toEqual([1.25, 33.95]);
    expect(NORTH_EAST).toEqual([1.5, 34.2]);
  });

  it('a refused point does not make the district low: dry everywhere else, the day is unknown and no one is told', async () => {
    refused = [WEST];
    await run();
    const d = await maize(BUKEDEA);
    expect(new Set(d.days.map((x) => x.level))).toEqual(new Set(['unknown']));
    expect(d.days[0].basis).toMatchObject({ points: 4, points_unknown: 1 });
    // Kampala, one point and dry: low, read at its centre.
    const kampala = await maize(KAMPALA);
    expect(kampala.days[0].level).toBe('low');
    expect(kampala.days[0].basis).toMatchObject({ points: 1, points_unknown: 0 });
    expect(kampala.days[0].basis.point).toMatchObject({ km: 0, direction: null, elevation: 1050 });
    expect(sms()).toHaveLength(0);
  });

  it('a refused centre does not hide the highland: its cool dew nights drive the level, and it is named', async () => {
    t.clock.advance(25 * 3_600_000); // past WEATHER_MAX_AGE_HOURS: the last fetch is no longer believed
    refused = [CENTRE];
    wetAt = NORTH_EAST;
    await run();
    const d = await maize(BUKEDEA);
    expect(d.days[0].level).toBe('high');
    expect(d.days[0].basis).toMatchObject({
      points: 4,
      points_unknown: 1,
      wet_hours: 11,
      point: { lat: 1.5, lng: 34.2, elevation: 2105 },
    });
  });

  it('reads a warm dry lowland centre with a cool dew night in its highland as high, and names the highland point', async () => {
    t.clock.advance(25 * 3_600_000);
    refused = [];
    wetAt = NORTH_EAST;
    await run();
    const d = await maize(BUKEDEA);
    expect(d.worst).toBe('high');
    expect(d.days.map((x) => x.level)).toEqual(Array(7).fill('high'));
    // The highland point, 18.9 km north-east of the centre, at the elevation the service gave (rounded).
    expect(d.days[1].basis).toMatchObject({
      points: 4,
      points_unknown: 0,
      wet_hours: 11,
      neighbours: ['Mbale'],
      point: { lat: 1.5, lng: 34.2, elevation: 2105, km: 18.9, direction: 'NE' },
    });
    // Past today's send hour, the advisory waits for tomorrow's, or goes now when a person sends it (0128).
    const sent = await t.app.inject({ method: 'POST', url: forecastApi.sendNow, headers: admin.headers });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sms()).toHaveLength(1);

    // The same highland dry: every point low, read at the centre (the first of equals).
    t.clock.advance(25 * 3_600_000);
    wetAt = null;
    await run();
    const dry = await maize(BUKEDEA);
    expect(dry.days[0].level).toBe('low');
    expect(dry.days[0].basis.point).toEqual({ lat: 1.35, lng: 34.12, elevation: 1050, km: 0, direction: null });
  });
});
