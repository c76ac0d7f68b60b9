import { type DistrictForecastReply, forecastApi, SMALL_COUNT_MIN } from '@kutu/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenMeteo, MAX_HOURS } from '../../adapters/weather.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { insertField } from '../../../test/support/fields.ts';
import {
  coolDewNight,
  dayAfter,
  type OpenMeteoRequest,
  openMeteoReply,
  startOpenMeteo,
  weatherPointsOf,
} from '../../../test/support/open-meteo.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';

// Bukedea (UG-219), next to Mbale (UG-209) where maize and bean rust are confirmed.
const MBALE = 'UG-209';
const BUKEDEA = 'UG-219';
const TODAY = '2026-12-01';

type Reply = ReturnType<typeof openMeteoReply>;
/** The good reply to a request (as many hours as it asked, from `past_days` before today), then bent by `bend`. */
function answer(q: OpenMeteoRequest, bend: (r: Reply) => unknown = (r) => r) {
  const body = q.places.map((p) =>
    bend(openMeteoReply(p, dayAfter(TODAY, -q.pastDays), (q.pastDays + q.forecastDays) * 24, coolDewNight)),
  );
  return body.length === 1 ? body[0] : body;
}
const withHourly = (r: Reply, name: string, f: (v: unknown, i: number) => unknown) => ({
  ...r,
  hourly: { ...r.hourly, [name]: r.hourly[name].map(f) },
});
const allHourly = (r: Reply, f: (v: unknown) => unknown) => ({
  ...r,
  hourly: Object.fromEntries(Object.entries(r.hourly).map(([k, v]) => [k, k === 'time' ? v : v.map(f)])),
});

/** Replies that once became warnings or "low (known)": each must read unknown and tell no one. */
const BAD: Record<string, (r: Reply) => unknown> = {
  'relative humidity 500 at night': (r) => withHourly(r, 'relative_humidity_2m', (v) => (v === 97 ? 500 : v)),
  'a dew point in °F beside a temperature in °C': (r) =>
    withHourly(r, 'dew_point_2m', (v) => ((v as number) * 9) / 5 + 32),
  'a humidity array twice the length of time': (r) => ({
    ...r,
    hourly: { ...r.hourly, relative_humidity_2m: [...r.hourly.time, ...r.hourly.time].map(() => 97) },
  }),
  'temperatures in °F': (r) => ({
    ...withHourly(r, 'temperature_2m', (v) => ((v as number) * 9) / 5 + 32),
    hourly_units: { ...r.hourly_units, temperature_2m: '°F' },
  }),
  'wind in m/s': (r) => ({ ...r, hourly_units: { ...r.hourly_units, wind_speed_10m: 'm/s' } }),
  'times in GMT': (r) => ({ ...r, utc_offset_seconds: 0, timezone: 'GMT' }),
  'every value null': (r) => allHourly(r, () => null),
  'every value a string': (r) => allHourly(r, (v) => String(v)),
  'negative humidity without dew points': (r) => ({
    ...withHourly(r, 'relative_humidity_2m', () => -5),
    hourly: { ...withHourly(r, 'relative_humidity_2m', () => -5).hourly, dew_point_2m: r.hourly.time.map(() => null) },
  }),
  'short arrays': (r) =>
    withHourly(
      withHourly(r, 'temperature_2m', (v) => v),
      'dew_point_2m',
      (v) => v,
    ) && {
      ...r,
      hourly: {
        ...r.hourly,
        temperature_2m: r.hourly.temperature_2m.slice(0, 24),
        dew_point_2m: r.hourly.dew_point_2m.slice(0, 24),
      },
    },
  'thirty days of hours': (r) =>
    openMeteoReply({ lat: r.latitude, lng: r.longitude }, dayAfter(TODAY, -1), 30 * 24, coolDewNight),
  'ten years of hours (too many bytes)': (r) =>
    openMeteoReply({ lat: r.latitude, lng: r.longitude }, dayAfter(TODAY, -1), 120 * 24, coolDewNight),
};

describe('weather checked before it is believed', () => {
  let t: TestContext;
  let stub: Awaited<ReturnType<typeof startOpenMeteo>>;
  let bend: ((r: Reply) => unknown) | 'error' = (r) => r;
  let admin: TestUser;
  let maizeFarmer: TestUser;
  let beanFarmer: TestUser;
  let expert: TestUser;

  beforeAll(async () => {
    stub = await startOpenMeteo((q) =>
      bend === 'error'
        ? { status: 400, body: { error: true, reason: 'Cannot initialize WeatherVariable from invalid String value' } }
        : answer(q, bend),
    );
    t = await createTestApp({
      env: { ADVISORY_SEND_HOUR: '6' }, // advisories go at the run, 06:00 EAT (docs/decisions/0128)
      weather: createOpenMeteo({ url: stub.url, timeoutMs: 5000 }),
      weatherPoints: weatherPointsOf(BUKEDEA, MBALE),
    });
    t.clock.set(new Date('2026-12-01T03:00:00Z')); // 06:00 EAT, Tuesday
    const db = t.deps.database.db;
    admin = await createUser(t, 'admin');
    expert = await createUser(t, 'expert', { district: BUKEDEA });
    maizeFarmer = await createUser(t, 'farmer');
    beanFarmer = await createUser(t, 'farmer');
    await insertField(db, maizeFarmer.id, 'maize', { district: BUKEDEA });
    await insertField(db, beanFarmer.id, 'beans', { district: BUKEDEA });
    for (const crop of ['maize', 'beans'])
      await db.execute(
        sql`insert into outbreak_counts (district, crop, week_start, demo, confirmed) values (${MBALE}, ${crop}, '2026-11-30', false, ${SMALL_COUNT_MIN})`,
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
  const bukedea = async (crop: 'maize' | 'beans') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${forecastApi.districtPath(BUKEDEA)}?crop=${crop}`,
      headers: expert.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DistrictForecastReply>();
  };
  const sms = () => t.outbox.list().filter((e) => e.channel === 'sms');

  for (const [name, bad] of Object.entries(BAD))
    it(`reads ${name} as unknown and tells no one`, async () => {
      bend = bad;
      await run();
      for (const crop of ['maize', 'beans'] as const) {
        const d = await bukedea(crop);
        expect(d.weather.state, `${name}, ${crop}`).toBe('unknown');
        expect(new Set(d.days.map((x) => x.level)), `${name}, ${crop}`).toEqual(new Set(['unknown']));
      }
      expect(sms()).toHaveLength(0);
    });

  it("gives the service's reason when it refuses the request", async () => {
    bend = 'error';
    const weather = createOpenMeteo({ url: stub.url, timeoutMs: 5000 });
    await expect(weather.forecast([{ code: BUKEDEA, lat: 1.3, lng: 34.1 }])).rejects.toThrow(
      /400 \(Cannot initialize WeatherVariable/,
    );
  });

  it('marks an hour with a value out of range unknown and keeps the others', async () => {
    bend = (r) => withHourly(r as Reply, 'wind_direction_10m', (v, i) => (i === 3 ? 400 : v));
    const { hours, refused } = await createOpenMeteo({ url: stub.url, timeoutMs: 5000 }).forecast([
      { code: BUKEDEA, lat: 1.3, lng: 34.1 },
    ]);
    expect(refused).toEqual([]);
    const got = hours.get(BUKEDEA)!;
    expect(got).toHaveLength(MAX_HOURS);
    expect(got[0].time).toBe('2026-11-30T00:00');
    expect(got[3]).toMatchObject({ tempC: null, humidity: null, windFromDeg: null });
    expect(got[4]).toMatchObject({ tempC: 20, humidity: 97, windFromDeg: 95 });
  });

  it("counts last evening's hours in today's wet night (20:00-07:00: beans infect), and tells farmers once", async () => {
    bend = (r) => r;
    await run();
    expect(stub.requests.at(-1)).toMatchObject({ pastDays: 1, forecastDays: 7 });
    const beans = await bukedea('beans');
    expect(beans.weather.state).toBe('known');
    // Today: 4 h last evening and 7 h this morning, one wet period of 11 h at 20 °C (10.4 h needed).
    expect(beans.days[0]).toMatchObject({ day: TODAY, level: 'high' });
    expect(beans.days[0].basis).toMatchObject({ wet_hours: 11, longest_run: 11, infection_hours: 11 });
    expect((await bukedea('maize')).worst).toBe('high');
    expect(sms().filter((e) => e.to === maizeFarmer.phone)).toHaveLength(1);
    expect(sms().filter((e) => e.to === beanFarmer.phone)).toHaveLength(1);
  });

  it('keeps the last good forecast through a bad reply while it is young, and believes none past a day', async () => {
    bend = BAD['relative humidity 500 at night'];
    t.clock.advance(6 * 3_600_000);
    await run();
    const young = await bukedea('maize');
    expect(young.weather).toMatchObject({ state: 'known', age_hours: 6 });
    expect(young.worst).toBe('high');

    // A day and more since the last good fetch: every day unknown, and a farmer who came since is not told.
    t.clock.advance(19 * 3_600_000);
    const late = await createUser(t, 'farmer');
    await insertField(t.deps.database.db, late.id, 'maize', { district: BUKEDEA, createdAt: t.clock.now() });
    bend = 'error';
    await run();
    const stale = await bukedea('maize');
    expect(stale.weather.state).toBe('unknown');
    expect(new Set(stale.days.map((x) => x.level))).toEqual(new Set(['unknown']));
    expect(sms().filter((e) => e.to === late.phone)).toHaveLength(0);
  });
});
