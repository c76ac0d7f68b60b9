import {
  type OpenFeedGeoJson,
  type OutbreakMapReply,
  type OutbreakTablePage,
  type OutbreakTrendReply,
  districtByCode,
  outbreakApi,
  reviewApi,
  api,
} from '@kutu/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { analyses, users } from '../../db/schema/index.ts';
import { message, render } from '../../i18n/i18n.ts';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createMemoryCoordinator } from '../../adapters/coordinator.ts';
import { createListCaches } from '../../lib/list-cache.ts';
import { fixture, insertRustPhoto } from '../../../test/support/photos.ts';
import { createOutbreakService } from './outbreak.service.ts';
import { ALERT_THRESHOLD } from './rule.ts';
import { outbreakSources } from '../../ports.ts';

// These scenarios test the privacy rule's logic at the minimum their data were written for (weeks of 1, 2
// and 3); that every surface follows the contract's minimum, whatever it is, is minimum-five.test.ts's job.
vi.mock(import('@kutu/contract/outbreak-paths'), async (original) => ({
  ...(await original()),
  SMALL_COUNT_MIN: 3,
  SMALL_COUNT_WORDS: { min: 3, max: 2 },
}));

// Districts: Kumi (UG-208) and its neighbour Bukedea (UG-219); Kampala (UG-102) far away.
const KUMI = 'UG-208';
const BUKEDEA = 'UG-219';
const KAMPALA = 'UG-102';
const MASAKA = 'UG-105';
const review = (id: number) => reviewApi.reviewPath(id);

describe('outbreak watch', () => {
  let t: TestContext;
  let expert: TestUser;
  let service: ReturnType<typeof createOutbreakService>;
  let seconds = 0;
  let photoKey: string;

  beforeAll(async () => {
    // The test's own service and the app share one coordinator: its count changes drop the app's cached maps.
    const coordinator = createMemoryCoordinator();
    t = await createTestApp({ env: { RETRAIN_AFTER_SAMPLES: '0' }, workJobs: true, coordinator });
    t.clock.set(new Date('2026-11-25T09:00:00Z'));
    expert = await createUser(t, 'expert');
    photoKey = await t.deps.storage.put('analyses/test', fixture('maize-common-rust.jpg'), 'jpg');
    const db = t.deps.database.db;
    service = createOutbreakService(
      {
        db,
        clock: t.clock,
        jobs: t.deps.jobs,
        delivery: testDelivery(t),
        lists: createListCaches(coordinator, t.clock),
      },
      outbreakSources,
    );
  });
  afterAll(() => t.close());

  async function farmerIn(district: string, opts: { language?: 'en' | 'sw' | 'lg'; sms?: boolean } = {}) {
    const f = await createUser(t, 'farmer', { language: opts.language });
    await t.deps.database.db
      .update(users)
      .set({ district, smsAlerts: opts.sms ?? true })
      .where(sql`id = ${f.id}`);
    return f;
  }

  /** A photo the model called rust with confidence (or healthy), as analysis.service stores it, then counted. */
  async function photo(
    owner: TestUser,
    opts: { at?: Date; crop?: 'maize' | 'beans' | null; rust?: boolean; unsure?: boolean } = {},
  ) {
    seconds += 1;
    const rust = opts.rust ?? true;
    const [row] = await t.deps.database.db
      .insert(analyses)
      .values({
        userId: owner.id,
        imagePath: photoKey,
        outcome: 'diagnosis',
        rustClass: rust ? 'common_rust' : 'healthy',
        confidence: 0.9,
        unsure: opts.unsure ?? false,
        probabilities: rust
          ? { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 }
          : { common_rust: 0.05, healthy: 0.9, other_disease: 0.05 },
        modelVersion: 'v-test',
        crop: opts.crop === undefined ? 'maize' : opts.crop,
        createdAt: new Date((opts.at ?? new Date('2026-11-24T08:00:00Z')).getTime() + seconds * 1000),
      })
      .returning({ id: analyses.id });
    await service.record(row.id);
    return row.id;
  }

  const get = (url: string, who: TestUser | null, query?: Record<string, string>) =>
    t.app.inject({ method: 'GET', url, query, headers: who?.headers ?? {} });
  const decide = (id: number, verdict: string) =>
    t.app.inject({ method: 'PUT', url: review(id), headers: expert.headers, payload: { verdict } });
  /** The true counts in the window (never published as such): what counting stored. */
  async function countsOf(district: string) {
    const res = await t.deps.database.db.execute(sql`select coalesce(sum(confirmed), 0)::int as confirmed,
      coalesce(sum(reported), 0)::int as reported from outbreak_counts
      where district = ${district} and crop = 'maize' and week_start >= '2026-11-16'`);
    const [row] = (res as unknown as { rows: { confirmed: number; reported: number }[] }).rows;
    return { confirmed: Number(row.confirmed), reported: Number(row.reported) };
  }
  async function mapOf(district: string, crop = 'maize') {
    const res = await get(outbreakApi.map, expert, { crop });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as OutbreakMapReply).districts.find((d) => d.code === district);
  }

  it('counts one farmer once a week, however many photos; another week counts apart', async () => {
    const a = await farmerIn(MASAKA);
    const b = await farmerIn(MASAKA);
    const c = await farmerIn(MASAKA);
    await photo(a);
    await photo(a);
    await photo(a);
    await photo(a, { rust: false }); // healthy: no case
    await photo(a, { unsure: true }); // rust but unsure: no case
    expect(await countsOf(MASAKA)).toEqual({ confirmed: 0, reported: 1 });
    // One farmer's case is not shown at all: a district with 1 or 2 looks like one with none (0052).
    expect(await mapOf(MASAKA)).toBeUndefined();
    await photo(b);
    await photo(c);
    expect((await mapOf(MASAKA))?.reported).toEqual({ count: 3, below_min: false });
    // The week before (inside the 14-day window) is another farmer-week for a: counted, but that week's
    // 1 is not added to the window's total, which would give it away by subtraction.
    await photo(a, { at: new Date('2026-11-17T08:00:00Z') });
    expect(await countsOf(MASAKA)).toEqual({ confirmed: 0, reported: 4 });
    expect((await mapOf(MASAKA))?.reported).toEqual({ count: 3, below_min: false });
    const trend = (await get(outbreakApi.trendPath(MASAKA), a, { crop: 'maize' })).json() as OutbreakTrendReply;
    expect(trend.weeks).toHaveLength(12);
    expect(trend.weeks.at(-1)).toMatchObject({ week: '2026-W48', week_start: '2026-11-23', reported: { count: 3 } });
    expect(trend.weeks.at(-2)).toMatchObject({
      week: '2026-W47',
      reported: { count: null, below_min: true },
    });
    // Beans are a separate map.
    expect(await mapOf(MASAKA, 'beans')).toBeUndefined();
  });

  it('a verdict of rust confirms a case and "not rust" removes it again', async () => {
    const f = await farmerIn(KAMPALA);
    const id = await photo(f);
    expect(await countsOf(KAMPALA)).toEqual({ confirmed: 0, reported: 1 });
    expect((await decide(id, 'common_rust')).statusCode).toBe(200);
    expect(await countsOf(KAMPALA)).toEqual({ confirmed: 1, reported: 0 });
    expect((await decide(id, 'healthy')).statusCode).toBe(200);
    expect(await countsOf(KAMPALA)).toEqual({ confirmed: 0, reported: 0 });
    // A photo the model called healthy that the expert calls rust is confirmed too.
    const other = await photo(f, { rust: false });
    expect(await countsOf(KAMPALA)).toEqual({ confirmed: 0, reported: 0 });
    expect((await decide(other, 'common_rust')).statusCode).toBe(200);
    expect(await countsOf(KAMPALA)).toEqual({ confirmed: 1, reported: 0 });
    expect(await mapOf(KAMPALA)).toBeUndefined();
  });

  it('repairs counts a crash left short (verdict or photo committed, count not) at the next upkeep', async () => {
    const KALANGALA = 'UG-101';
    const [a, b] = [await farmerIn(KALANGALA), await farmerIn(KALANGALA)];
    const first = await photo(a);
    // What kill -9 between the commits and record() leaves: a verdict and a photo that were never counted.
    await t.deps.database.db.execute(
      sql`insert into expert_reviews (analysis_id, verdict, reviewed_at) values (${first}, 'common_rust', now())`,
    );
    await insertRustPhoto(t.deps.database.db, b.id, photoKey, new Date('2026-11-24T10:00:00Z'));
    expect(await countsOf(KALANGALA)).toEqual({ confirmed: 0, reported: 1 });
    expect(await service.reconcile()).toBe(2);
    expect(await countsOf(KALANGALA)).toEqual({ confirmed: 1, reported: 1 });
    expect(await service.reconcile()).toBe(0);
  });

  it('hides small counts and anything personal in the map, table, CSV and open feed', async () => {
    const res = await get(outbreakApi.map, expert, { crop: 'maize' });
    const body = res.body;
    const table = await get(outbreakApi.districts, expert, { crop: 'maize' });
    expect(table.statusCode).toBe(200);
    const rows = (table.json() as OutbreakTablePage).results;
    // Kampala's one confirmed case is nowhere; Masaka's 3 reported are in the table and the CSV.
    expect(rows.map((r) => r.code)).toEqual([MASAKA]);
    expect(rows[0]).toMatchObject({ reported: { count: 3 }, unreviewed: { count: 3 }, confirmed: { count: null } });
    const csv = await get(outbreakApi.exportCsv, expert, { crop: 'maize' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toMatch(/2026-W48,2026-11-23,UG-105,Masaka,UG,maize,<3,3,false/);
    expect(csv.body).not.toContain(KAMPALA);
    const feedCsv = await get(outbreakApi.openCsv, null);
    expect(feedCsv.statusCode).toBe(200);
    expect(feedCsv.body).not.toContain(KAMPALA);
    const geo = await get(outbreakApi.openGeoJson, null, { crop: 'maize' });
    expect(geo.statusCode).toBe(200);
    const fc = geo.json() as OpenFeedGeoJson;
    expect(fc.features.some((f) => f.properties.code === KAMPALA)).toBe(false);
    // Reported-only districts (Masaka) are not in the open feed: it publishes confirmed cases only.
    expect(fc.features.some((f) => f.properties.code === MASAKA)).toBe(false);
    for (const text of [body, table.body, csv.body, feedCsv.body, geo.body]) {
      expect(text).not.toMatch(/farmer\d|@example\.com|\+2567|analyses\/|user_id|"analysis_id"/);
      expect(text).not.toMatch(/"count":[12],"below_min"/);
    }
  });

  it('keeps the table and CSV to experts, the map to signed-in users, the feed open', async () => {
    const f = await farmerIn(KAMPALA);
    expect((await get(outbreakApi.map, null)).statusCode).toBe(401);
    expect((await get(outbreakApi.map, f)).statusCode).toBe(200);
    expect((await get(outbreakApi.trendPath(KAMPALA), f)).statusCode).toBe(200);
    expect((await get(outbreakApi.districts, f)).statusCode).toBe(403);
    expect((await get(outbreakApi.exportCsv, f)).statusCode).toBe(403);
    expect((await get(outbreakApi.districts, null)).statusCode).toBe(401);
    expect((await get(outbreakApi.openGeoJson, null)).statusCode).toBe(200);
    expect((await get(outbreakApi.trendPath('UG-999'), f)).statusCode).toBe(400);
    // The review queue by district, for experts.
    const queue = await get(reviewApi.queue, expert, { district: MASAKA, page_size: '50' });
    expect(queue.statusCode).toBe(200);
    const owners = new Set((queue.json() as { results: { farmer: { id: number } }[] }).results.map((r) => r.farmer.id));
    expect(owners.size).toBe(3);
    expect((await get(reviewApi.queue, expert, { district: 'XX-1' })).statusCode).toBe(400);
  });

  it('refuses sign-up with an unknown district, stores a known one, and asks existing accounts once', async () => {
    const body = {
      username: 'districtfarmer',
      password: 'Str0ng!Passw0rd',
      confirm_password: 'Str0ng!Passw0rd',
      phone_number: '+256700999001',
      farm_location: 'Near the market',
      farm_size: 2,
      crop_types: ['MAIZE'],
      consent: { service: true, sms: true, training: false },
    };
    const bad = await t.app.inject({
      method: 'POST',
      url: api.auth.registerFarmer,
      payload: { ...body, district: 'UG-999' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.district).toBe('Choose a district or county from the list');
    const badSw = await t.app.inject({
      method: 'POST',
      url: api.auth.registerFarmer,
      headers: { 'accept-language': 'sw' },
      payload: { ...body, district: 'Mbale town' },
    });
    expect(badSw.json().error.fields.district).toBe('Chagua wilaya au kaunti kutoka kwenye orodha');
    const ok = await t.app.inject({
      method: 'POST',
      url: api.auth.registerFarmer,
      payload: { ...body, district: 'ug-208' },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const [row] = await t.deps.database.db.select().from(users).where(sql`username = 'districtfarmer'`);
    expect(row.district).toBe(KUMI);
    expect(row.smsAlerts).toBe(true);

    // An account from before: no district, asked once, its farm location kept.
    const old = await createUser(t, 'farmer');
    const me = (await get(api.auth.me, old)).json();
    expect(me).toMatchObject({
      district: null,
      needsDistrict: true,
      farmer: { farm_location: 'Mbale', sms_alerts: true, voice_warnings: false },
    });
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: outbreakApi.settings, headers: old.headers, payload });
    expect((await put({ district: 'KE-99' })).statusCode).toBe(400);
    expect((await put({})).statusCode).toBe(400);
    expect((await put({ district: 'KE-04' })).json()).toEqual({
      district: 'KE-04',
      sms_alerts: true,
      voice_warnings: false,
      needs_district: false,
    });
    expect((await put({ sms_alerts: false })).json()).toEqual({
      district: 'KE-04',
      sms_alerts: false,
      voice_warnings: false,
      needs_district: false,
    });
    // Calls with rust warnings (docs/decisions/0123): their own setting, the others left as they are.
    expect((await put({ voice_warnings: true })).json()).toEqual({
      district: 'KE-04',
      sms_alerts: false,
      voice_warnings: true,
      needs_district: false,
    });
    expect((await get(api.auth.me, old)).json()).toMatchObject({ district: 'KE-04', needsDistrict: false });
  });

  it('writes the alert SMS in each language, saying what to do now', () => {
    const params = { crop: message('outbreak.crops.maize'), district: 'Kumi', source: 'Bukedea' };
    const gsm7 = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà^{}\\[~\]|€]*$/;
    const expected = {
      en: ['maize rust', 'Walk your field', 'orange-brown', 'photo', 'Kutu'],
      sw: ['kutu ya mahindi', 'Kagua shamba', 'machungwa-kahawia', 'Kagua jani', 'Kutu'],
      lg: ['kutu ku kasooli', 'Lambula ennimiro', 'kyenvu-kitaka', 'Kebera ekikoola', 'Kutu'],
    };
    for (const language of ['en', 'sw', 'lg'] as const) {
      for (const key of ['outbreak.alert.sms', 'outbreak.alert.smsNeighbour'] as const) {
        const text = render(language, message(key, params));
        expect(text, language).toMatch(gsm7);
        // One SMS (i18n/bulk-sms.test.ts holds it for every district).
        expect(text.length, `${language} ${key}`).toBeLessThanOrEqual(160);
        for (const part of expected[language])
          expect(text.toLowerCase(), `${language} ${key}`).toContain(part.toLowerCase());
        expect(text).toContain('Bukedea');
      }
    }
  });

  it(`raises exactly one alert per district under 20 concurrent confirmations (threshold ${ALERT_THRESHOLD})`, async () => {
    // 20 farmers in Bukedea with a rust photo each; farmers and an expert in Kumi next door.
    const sick = await Promise.all(Array.from({ length: 20 }, () => farmerIn(BUKEDEA)));
    const ids: number[] = [];
    for (const f of sick) ids.push(await photo(f));
    const luganda = await farmerIn(KUMI, { language: 'lg' });
    const quiet = await farmerIn(KUMI, { sms: false });
    const beansOnly = await farmerIn(KUMI);
    await t.deps.database.db.execute(
      sql`update farmer_profiles set crop_types = '{BEANS}' where user_id = ${beansOnly.id}`,
    );
    const kumiExpert = await createUser(t, 'expert');
    // Experts whose application waits or was refused are not told (docs/decisions/0027).
    const waiting = await createUser(t, 'expert', { vetting: 'pending' });
    const refused = await createUser(t, 'expert', { vetting: 'refused' });
    for (const e of [kumiExpert, waiting, refused])
      await t.deps.database.db.update(users).set({ district: KUMI }).where(sql`id = ${e.id}`);
    const smsBefore = t.outbox.list().filter((m) => m.channel === 'sms').length;

    const results = await Promise.all(ids.map((id) => decide(id, 'common_rust')));
    expect(results.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
    expect((await mapOf(BUKEDEA))?.confirmed).toEqual({ count: 20, below_min: false });

    const alerts = await t.deps.database.execute(
      `select district, source_district from outbreak_alerts where crop = 'maize' and ended_at is null order by district`,
    );
    const alerted = alerts.rows.map((r) => r.district);
    // Bukedea and each of its neighbours, once.
    const expected = [BUKEDEA, ...(districtByCode(BUKEDEA)?.neighbours ?? [])].sort();
    expect(alerted).toEqual(expected);

    // Delivery runs in the job queue: wait for Kumi's farmers to be told.
    const deadline = Date.now() + 20_000;
    const alertsOf = async (userId: number) =>
      (
        await t.deps.database.execute(
          `select message from notifications where user_id = $1 and type = 'outbreak_alert'`,
          [userId],
        )
      ).rows;
    while (Date.now() < deadline && (await alertsOf(luganda.id)).length === 0)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    expect(await alertsOf(luganda.id)).toHaveLength(1);
    expect(await alertsOf(quiet.id)).toHaveLength(1);
    expect(await alertsOf(kumiExpert.id)).toHaveLength(1);
    expect(await alertsOf(waiting.id)).toHaveLength(0);
    expect(await alertsOf(refused.id)).toHaveLength(0);
    expect(await alertsOf(beansOnly.id)).toHaveLength(0);
    for (const f of sick.slice(0, 3)) expect(await alertsOf(f.id)).toHaveLength(1);

    // Every alert SMS names the district where cases were confirmed; the verdict SMS does not.
    const sms = t.outbox
      .list()
      .filter((m) => m.channel === 'sms')
      .slice(0, -smsBefore || undefined)
      .filter((m) => m.text.includes('Bukedea'));
    const to = (phone: string) => sms.filter((m) => m.to === phone);
    expect(to(luganda.phone)).toHaveLength(1);
    expect(to(luganda.phone)[0].text).toContain('Lambula ennimiro yo');
    expect(to(luganda.phone)[0].text).toContain('Bukedea');
    expect(to(quiet.phone)).toHaveLength(0);
    expect(to(beansOnly.phone)).toHaveLength(0);
    expect(to(sick[0].phone)).toHaveLength(1);

    // The alert is shown on the map; more confirmations while it lasts raise nothing new.
    expect((await mapOf(BUKEDEA))?.alert).toBe(true);
    const more = await farmerIn(BUKEDEA);
    const extra = await photo(more);
    expect((await decide(extra, 'common_rust')).statusCode).toBe(200);
    const after = await t.deps.database.execute(`select count(*)::int as n from outbreak_alerts where crop = 'maize'`);
    expect(Number(after.rows[0].n)).toBe(expected.length);
  });

  it('ends an alert once its cases have left the window, with no verdict (the upkeep job), and not before', async () => {
    // Bomet (KE-02), beans: nothing else in this file counts there.
    const BOMET = 'KE-02';
    const open = async () =>
      (
        await t.deps.database.execute(
          `select district from outbreak_alerts where crop = 'beans' and ended_at is null order by district`,
        )
      ).rows.map((r) => r.district);
    const farmers = await Promise.all(Array.from({ length: ALERT_THRESHOLD }, () => farmerIn(BOMET)));
    for (const f of farmers) {
      const id = await photo(f, { crop: 'beans' });
      expect((await decide(id, 'common_rust')).statusCode).toBe(200);
    }
    expect(await open()).toContain(BOMET);
    // Still inside the window: the rule holds and the alert stays.
    expect(await service.endLapsedAlerts()).toBe(0);
    expect(await open()).toContain(BOMET);

    // Three weeks on, the confirmed week is outside the 14-day window: the upkeep ends every such alert.
    const now = t.clock.now();
    t.clock.set(new Date('2026-12-16T09:00:00Z'));
    try {
      // Bomet's, its neighbours' and the maize alerts of the test before: every open alert has lapsed.
      const openAll = await t.deps.database.execute(
        'select count(*)::int as n from outbreak_alerts where ended_at is null',
      );
      expect(Number(openAll.rows[0].n)).toBeGreaterThanOrEqual(1 + (districtByCode(BOMET)?.neighbours.length ?? 0));
      expect(await service.endLapsedAlerts()).toBe(Number(openAll.rows[0].n));
      expect(await open()).toEqual([]);
      expect(await service.endLapsedAlerts()).toBe(0);
    } finally {
      t.clock.set(now);
    }
  });

  it("counts a farmer's photos of the last 14 days once the district is first set, once only", async () => {
    // Garissa (KE-07): nothing else in this file counts there.
    const GARISSA = 'KE-07';
    const f = await createUser(t, 'farmer');
    const reported = async () =>
      Number(
        (
          await t.deps.database.execute(
            `select coalesce(sum(reported), 0)::int as n from outbreak_counts where district = $1`,
            [GARISSA],
          )
        ).rows[0].n,
      );
    await photo(f); // this week
    await photo(f); // the same farmer-week
    await photo(f, { at: new Date('2026-11-17T08:00:00Z') }); // last week, inside 14 days
    await photo(f, { at: new Date('2026-10-20T08:00:00Z') }); // too old
    expect(await reported()).toBe(0); // no district yet: nowhere to count

    await service.saveSettings(f.id, { district: GARISSA });
    expect(await reported()).toBe(2); // two farmer-weeks, the old photo left out
    // Saving again (the same district, or SMS settings) counts nothing twice.
    await service.saveSettings(f.id, { district: GARISSA });
    await service.saveSettings(f.id, { sms_alerts: false });
    await Promise.all([service.saveSettings(f.id, { district: GARISSA }), service.saveSettings(f.id, {})]);
    expect(await reported()).toBe(2);
  });
});
