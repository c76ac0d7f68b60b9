import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type DistrictForecastReply,
  districtByCode,
  districts,
  extensionApi,
  type FieldForecastReply,
  forecastApi,
  forecastCrops,
  type ForecastWeekReply,
  type OfficerWeek,
  type OpenRiskGeoJson,
  SMALL_COUNT_MIN,
  vettingApi,
} from '@kutu/contract';
import { districtPoints } from '@kutu/contract/district-points';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCoordinator } from '../../adapters/coordinator.ts';
import { createOpenMeteo } from '../../adapters/weather.ts';
import {
  clinicVisits,
  followUps,
  notifications,
  officerProfiles,
  scoutingWalks,
  users,
} from '../../db/schema/index.ts';
import { createListCaches } from '../../lib/list-cache.ts';
import { smsParts } from '../../lib/sms-text.ts';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { insertField } from '../../../test/support/fields.ts';
import { pdfText } from '../../../test/support/pdf.ts';
import { weatherPointsOf } from '../../../test/support/open-meteo.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { clinicSmsFarmerSql } from '../clinic/clinic.service.ts';
import { createFieldsService } from '../fields/fields.service.ts';
import { createWalksService } from '../fields/walks.service.ts';
import { createFollowUpService } from '../followup/followup.service.ts';
import { createOutbreakService } from '../outbreak/outbreak.service.ts';
import { createEscalationService } from '../review/escalation.service.ts';
import { createApplicationsService } from '../vetting/applications.service.ts';
import { createForecastService } from './forecast.service.ts';
import { fieldPhotoSql, followUpSources, outbreakSources } from '../../ports.ts';

// Mbale (UG-209) and its neighbour Bukedea (UG-219); Kampala (UG-102) far from both.
const MBALE = 'UG-209';
const BUKEDEA = 'UG-219';
const KAMPALA = 'UG-102';
// Kasanda (UG-126), newer than the boundary file, is read at its parent Mubende's (UG-107) points.
const MUBENDE = 'UG-107';
const KASANDA = 'UG-126';
const KISUMU = districts.find((d) => d.name === 'Kisumu')!;
const NAIROBI = districts.find((d) => d.name === 'Nairobi')!;
/**
 * The districts these tests read, each at its points (docs/decisions/0134): 81 points, 68 places, where the
 * country's 721 took seconds a run to fetch and store. The others read "unknown".
 */
const READ = weatherPointsOf(
  ...[
    MBALE,
    ...districtByCode(MBALE)!.neighbours,
    KAMPALA,
    MUBENDE,
    KASANDA,
    KISUMU.code,
    ...KISUMU.neighbours,
    NAIROBI.code,
  ],
);
const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/open-meteo/${name}.json`, import.meta.url), 'utf8');
const replies = { wet: JSON.parse(fixture('cool-wet-nights')), dry: JSON.parse(fixture('hot-dry')) };

/**
 * A local Open-Meteo: answers `/v1/forecast` for many locations with an array, as the service does; or hangs up.
 * Each answer closes its connection (see startOpenMeteo in test/support/open-meteo.ts): a kept-alive one
 * raced the stub's keep-alive timeout under load and the next refresh read "weather unknown" (ECONNRESET).
 */
function openMeteoStub() {
  const state = { mode: 'wet' as 'wet' | 'dry' | 'down', requests: [] as number[] };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    if (state.mode === 'down') return void req.socket.destroy();
    const lats = (url.searchParams.get('latitude') ?? '').split(',');
    const lngs = (url.searchParams.get('longitude') ?? '').split(',');
    state.requests.push(lats.length);
    if (url.pathname !== '/v1/forecast' || lats.length !== lngs.length || !url.searchParams.get('hourly')) {
      res.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
      return void res.end(JSON.stringify({ error: true, reason: 'bad request' }));
    }
    const one = replies[state.mode];
    const body = lats.map((lat, i) => ({ ...one, latitude: Number(lat), longitude: Number(lngs[i]) }));
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify(body.length === 1 ? body[0] : body));
  });
  return { server, state };
}

describe('rust forecast', () => {
  let t: TestContext;
  let stub: ReturnType<typeof openMeteoStub>;
  let forecast: ReturnType<typeof createForecastService>;
  let maizeFarmer: TestUser;
  let twoFields: TestUser;
  let beanFarmer: TestUser;
  let expert: TestUser;
  let officer: TestUser;
  let officerAlsoHere: TestUser;
  let officerElsewhere: TestUser;
  let expertUnapproved: TestUser;
  let clinicFarmer: TestUser;
  let clinicRefused: TestUser;

  beforeAll(async () => {
    stub = openMeteoStub();
    await new Promise<void>((r) => stub.server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}`;
    // The advisories go at 06:00 EAT, the hour the tests run (docs/decisions/0128).
    t = await createTestApp({ env: { ADVISORY_SEND_HOUR: '6' } });
    t.clock.set(new Date('2026-12-01T03:00:00Z')); // 06:00 EAT, Tuesday
    const db = t.deps.database.db;
    const coordinator = createMemoryCoordinator();
    const delivery = testDelivery(t);
    const outbreak = createOutbreakService(
      {
        db,
        clock: t.clock,
        jobs: t.deps.jobs,
        delivery,
        lists: createListCaches(coordinator, t.clock),
      },
      outbreakSources,
    );
    const weather = createOpenMeteo({ url, timeoutMs: 10_000 });
    const escalation = createEscalationService(db);
    const fieldsService = createFieldsService({ db, clock: t.clock }, fieldPhotoSql);
    const followUpService = createFollowUpService(
      { db, clock: t.clock, delivery, config: t.deps.config },
      escalation,
      fieldsService,
      followUpSources,
    );
    const walks = createWalksService({ db, clock: t.clock }, fieldsService, followUpService, escalation, fieldPhotoSql);
    forecast = createForecastService(
      {
        db,
        clock: t.clock,
        weather,
        delivery,
        config: t.deps.config,
        weatherPoints: READ,
      },
      { outbreak, followUps: followUpService, walks, clinicFarmerSql: clinicSmsFarmerSql },
    );
    maizeFarmer = await createUser(t, 'farmer', { language: 'lg' });
    const field = await insertField(db, maizeFarmer.id, 'maize', { district: BUKEDEA });
    // A walk two days ago that found no rust, and Kutu's reminder to walk again in ten days.
    const now = t.clock.now();
    const [walk] = await db
      .insert(scoutingWalks)
      .values({
        fieldId: field.id,
        userId: maizeFarmer.id,
        channel: 'web',
        walkedAt: new Date(now.getTime() - 2 * 86_400_000),
        stops: [{ looked: 10, rust: 0 }],
        plantsLooked: 10,
        plantsRust: 0,
        adviceRule: 'none_seen',
        rulesVersion: 'test',
        adviceAction: 'keep_walking',
        adviceSteps: [],
        adviceSources: [],
        createdAt: now,
      })
      .returning();
    await db.insert(followUps).values({
      userId: maizeFarmer.id,
      fieldId: field.id,
      walkId: walk.id,
      crop: 'maize',
      dueAt: new Date(now.getTime() + 10 * 86_400_000),
      createdAt: now,
    });
    // A second maize field far away, where the same weather is only moderate (no rust near).
    await insertField(db, maizeFarmer.id, 'maize', { district: KAMPALA });
    // A farmer with maize fields in Mbale (confirmed) and Bukedea (next door): one advisory a week for the crop.
    twoFields = await createUser(t, 'farmer');
    await insertField(db, twoFields.id, 'maize', { district: MBALE });
    await insertField(db, twoFields.id, 'maize', { district: BUKEDEA });
    beanFarmer = await createUser(t, 'farmer', { language: 'sw' });
    await insertField(db, beanFarmer.id, 'beans', { district: BUKEDEA });
    expert = await createUser(t, 'expert', { district: BUKEDEA });
    officer = await createUser(t, 'officer', { districts: [BUKEDEA] });
    // Told: an officer whose account is elsewhere but whose profile covers Bukedea; a plant clinic's farmer
    // without an active account who agreed to SMS. Not told: an officer of other districts, an expert not
    // (or no longer) approved, a clinic farmer who did not agree.
    officerAlsoHere = await createUser(t, 'officer', { districts: [KAMPALA, BUKEDEA] });
    officerElsewhere = await createUser(t, 'officer', { districts: [KAMPALA] });
    expertUnapproved = await createUser(t, 'expert', { district: BUKEDEA });
    await db.execute(
      sql`update role_applications set status = 'pending', decided_at = null, decided_by = null where user_id = ${expertUnapproved.id}`,
    );
    clinicFarmer = await createUser(t, 'farmer');
    clinicRefused = await createUser(t, 'farmer');
    for (const [farmer, agreed] of [
      [clinicFarmer, true],
      [clinicRefused, false],
    ] as const) {
      await db.update(users).set({ activatedAt: null }).where(eq(users.id, farmer.id));
      const f = await insertField(db, farmer.id, 'maize', { district: BUKEDEA });
      await db.insert(clinicVisits).values({
        expertId: expert.id,
        farmerId: farmer.id,
        crop: 'maize',
        fieldId: f.id,
        growthStage: 'tasseling',
        analysisIds: [],
        consentAt: agreed ? now : null,
        createdAt: now,
      });
    }
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => stub.server.close(r));
  });

  const get = async <T>(url: string, who: TestUser) => {
    const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const smsTo = (u: TestUser) => t.outbox.list().filter((e) => e.channel === 'sms' && e.to === u.phone);
  // As many farmers as the map shows (SMALL_COUNT_MIN), so the reasons may name the district.
  const confirmedIn = (district: string, crop: string) =>
    t.deps.database.db.execute(
      sql`insert into outbreak_counts (district, crop, week_start, demo, confirmed) values (${district}, ${crop}, '2026-11-30', false, ${SMALL_COUNT_MIN})`,
    );

  it('says "weather unknown", never low, when the weather service cannot be reached, and tells no one', async () => {
    stub.state.mode = 'down';
    await confirmedIn(MBALE, 'maize');
    await forecast.refresh();
    const week = await get<ForecastWeekReply>(`${forecastApi.week}?crop=maize`, maizeFarmer);
    expect(week.weather).toEqual({ state: 'unknown', fetched_at: null, age_hours: null });
    expect(week.districts).toHaveLength(182);
    expect(new Set(week.districts.flatMap((d) => d.days.map((x) => x.level)))).toEqual(new Set(['unknown']));
    expect(week.districts[0].days).toHaveLength(7);
    expect(smsTo(maizeFarmer)).toHaveLength(0);
  });

  it('keeps maize risk low in hot dry weather, with rust next door', async () => {
    stub.state.mode = 'dry';
    await forecast.refresh();
    // Open-Meteo takes many places per request: each district's points (docs/decisions/0134), every distinct
    // place once (Kasanda shares Mubende's five), in requests of at most 50: 68 places here, the country's 721
    // in 15 requests.
    expect(new Set([...districtPoints.values()].flat().map(String)).size).toBe(721);
    expect(districtPoints.get(KASANDA)).toEqual(districtPoints.get(MUBENDE));
    expect([...READ.values()].flat()).toHaveLength(81);
    expect(stub.state.requests).toEqual([50, 18]);
    const d = await get<DistrictForecastReply>(`${forecastApi.districtPath(BUKEDEA)}?crop=maize`, maizeFarmer);
    expect(d.weather.state).toBe('known');
    expect(d.days.map((x) => x.level)).toEqual(Array(7).fill('low'));
    expect(d.days[0].basis).toMatchObject({ wet_hours: 0, neighbours: ['Mbale'], confirmed_here: false });
    expect(smsTo(maizeFarmer)).toHaveLength(0);
  });

  it('turns maize high on cool wet nights with rust confirmed next door, and tells its farmers once, before any confirmation there', async () => {
    stub.state.mode = 'wet';
    await forecast.refresh();
    const d = await get<DistrictForecastReply>(`${forecastApi.districtPath(BUKEDEA)}?crop=maize`, maizeFarmer);
    expect(d.worst).toBe('high');
    expect(d.days.map((x) => x.level)).toEqual(Array(7).fill('high'));
    // 17-18 °C: about 7 wet hours infect (Magarey's model, docs/decisions/0126), and the period starts again.
    expect(d.days[1].basis).toMatchObject({ wet_hours: 12, longest_run: 7, band: [12, 28], neighbours: ['Mbale'] });
    // The wind blows from the east (95°); Mbale lies to Bukedea's south-east.
    expect(d.days[1].basis.upwind).toEqual([]);
    // Far from any rust: the same weather is moderate.
    const far = await get<DistrictForecastReply>(`${forecastApi.districtPath(KAMPALA)}?crop=maize`, maizeFarmer);
    expect(far.worst).toBe('moderate');
    // Beans: 17-18 °C is at the edge of their rust's range, where 12 wet hours are not enough; no advisory.
    const beans = await get<DistrictForecastReply>(`${forecastApi.districtPath(BUKEDEA)}?crop=beans`, beanFarmer);
    expect(beans.worst).toBe('low');

    const sms = smsTo(maizeFarmer);
    expect(sms).toHaveLength(1);
    expect(sms[0].text).toContain('Bukedea');
    expect(sms[0].text).toContain('kasooli');
    // One day to walk by, the one the reminder is set to (a day after the advisory, the first high day being
    // sooner), said with its date, "by" it (not "before it arrives") in Luganda.
    expect(sms[0].text).toContain('obutasukka 2 Desemba:');
    expect(sms[0].text).not.toContain('tennatuuka');
    expect(smsParts(sms[0].text)).toHaveLength(1);
    expect(smsTo(beanFarmer)).toHaveLength(0);
    expect(smsTo(twoFields)).toHaveLength(1);
    expect(smsTo(expert)).toHaveLength(1);
    expect(smsTo(officer)).toHaveLength(1);
    expect(smsTo(officerAlsoHere)).toHaveLength(1);
    expect(smsTo(clinicFarmer)).toHaveLength(1);
    for (const nobody of [officerElsewhere, expertUnapproved, clinicRefused]) expect(smsTo(nobody)).toHaveLength(0);
    const inApp = await t.deps.database.db
      .select()
      .from(notifications)
      .where(sql`${notifications.userId} = ${maizeFarmer.id} and ${notifications.type} = 'rust_advisory'`);
    expect(inApp).toHaveLength(1);
    // The field's next walk comes forward: a day after the advisory, not ten.
    const [reminder] = await t.deps.database.db.select().from(followUps);
    expect(reminder.dueAt.toISOString()).toBe('2026-12-02T03:00:00.000Z');

    // The next run six hours later: still high, nobody told twice.
    t.clock.advance(6 * 3_600_000);
    await forecast.refresh();
    expect(smsTo(maizeFarmer)).toHaveLength(1);
    expect(smsTo(expert)).toHaveLength(1);

    // A farmer whose maize field in Bukedea is made later that week hears it from the next run, once; before,
    // the week's advisory was spent and they heard nothing.
    const late = await createUser(t, 'farmer');
    await insertField(t.deps.database.db, late.id, 'maize', { district: BUKEDEA, createdAt: t.clock.now() });
    await forecast.refresh();
    expect(smsTo(late)).toHaveLength(1);
    expect(smsTo(late)[0].text).toContain('Bukedea');
    await forecast.refresh();
    expect(smsTo(late)).toHaveLength(1);
    expect(smsTo(maizeFarmer)).toHaveLength(1);
    expect(smsTo(twoFields)).toHaveLength(1);
    expect(smsTo(expert)).toHaveLength(1);
  });

  it("shows the field's week on the farmer's field list and the open feed, and the weather's age", async () => {
    const mine = await get<FieldForecastReply>(forecastApi.myFields, maizeFarmer);
    expect(mine.fields.map((f) => [f.crop, f.district, f.worst])).toEqual([
      ['maize', BUKEDEA, 'high'],
      ['maize', KAMPALA, 'moderate'],
    ]);
    // The field's page names the same day as the SMS and the brought-forward reminder.
    expect(mine.fields[0].walk_by).toBe('2026-12-02');
    expect(mine.fields[0].weather.age_hours).toBe(0);

    const csv = await t.app.inject({ method: 'GET', url: forecastApi.openCsv });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\n')[0]).toBe('district,name,crop,day,level,rules_version,run_at');
    expect(csv.body).toContain(`${BUKEDEA},Bukedea,maize,2026-12-01,high,`);

    // The same as GeoJSON: every district and crop with its boundary and days, levels only.
    const geo = await t.app.inject({ method: 'GET', url: forecastApi.openGeoJson });
    expect(geo.statusCode).toBe(200);
    expect(geo.headers['content-type']).toContain('application/geo+json');
    const fc = geo.json<OpenRiskGeoJson>();
    expect(fc.features).toHaveLength(districts.length * forecastCrops.length);
    const bukedea = fc.features.find((f) => f.id === `${BUKEDEA}:maize`)!;
    expect(bukedea.geometry?.type).toMatch(/Polygon/);
    expect(bukedea.properties).toMatchObject({ name: 'Bukedea', country: 'UG', worst: 'high' });
    expect(bukedea.properties.days).toContainEqual({ day: '2026-12-01', level: 'high' });
    expect(fc.weather.state).toBe('known');
    expect(fc.attribution.join(' ')).toContain('OpenStreetMap');
    // Levels only: no count, no named neighbour, no reason.
    expect(geo.body).not.toMatch(/confirmed|walked|neighbours|Mbale next/);
    const beans = await t.app.inject({ method: 'GET', url: `${forecastApi.openGeoJson}?crop=beans` });
    expect(beans.json<OpenRiskGeoJson>().features.map((f) => f.properties.crop)).toEqual(districts.map(() => 'beans'));
    const wheat = await t.app.inject({ method: 'GET', url: `${forecastApi.openGeoJson}?crop=wheat` });
    expect(wheat.statusCode).toBe(400);

    // The service unreachable later: the cached weather stands, its age shown.
    stub.state.mode = 'down';
    t.clock.advance(6 * 3_600_000);
    await forecast.refresh();
    const d = await get<DistrictForecastReply>(`${forecastApi.districtPath(BUKEDEA)}?crop=maize`, expert);
    expect(d.weather).toMatchObject({ state: 'known', age_hours: 6 });
    expect(d.worst).toBe('high');
  });

  it("puts the coming week's risk in the officer's week, its CSV and its PDF", async () => {
    const week = await get<{ next_risk?: { crop: string; worst: string; high_days: string[] }[] }>(
      extensionApi.weekPath(BUKEDEA),
      officer,
    );
    expect(week.next_risk).toEqual([
      { crop: 'maize', worst: 'high', high_days: expect.arrayContaining(['2026-12-01', '2026-12-07']) },
      { crop: 'beans', worst: 'low', high_days: [] },
    ]);
    const csv = await t.app.inject({
      method: 'GET',
      url: extensionApi.reportCsvPath(BUKEDEA),
      headers: officer.headers,
    });
    expect(csv.body).toContain(`${BUKEDEA},Bukedea,`);
    expect(csv.body).toContain(',next_risk_maize,next 7 days,high');
    // The week's advisory is among its alerts and messages, with the three maize farmers it told (the one with
    // fields in two districts among them), where the week read "No alert in this district this week".
    const advised = await get<OfficerWeek>(extensionApi.weekPath(BUKEDEA), officer);
    expect(advised.advisories).toEqual([
      {
        crop: 'maize',
        high_day: '2026-12-01',
        told_at: expect.any(String),
        told: 3,
        delivered: 3,
        failed: 0,
        waiting: 0,
      },
    ]);
    expect(csv.body).toContain(',advisory_told,maize advisory high from 2026-12-01,3\n');
    const pdf = await t.app.inject({
      method: 'GET',
      url: extensionApi.reportPdfPath(BUKEDEA),
      headers: officer.headers,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdfText(pdf.rawPayload)).not.toContain('No alert in this district this week.');
    expect(pdfText(pdf.rawPayload)).toContain(
      'Maize rust risk high from 2026-12-01: farmers told to walk their fields',
    );
  });

  it('refuses an unknown district and a farmer asks only for their own fields', async () => {
    const res = await t.app.inject({ method: 'GET', url: forecastApi.districtPath('UG-999'), headers: expert.headers });
    expect(res.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'GET', url: `${forecastApi.week}?crop=wheat`, headers: expert.headers });
    expect(bad.statusCode).toBe(400);
    const staff = await t.app.inject({ method: 'GET', url: forecastApi.myFields, headers: expert.headers });
    expect(staff.statusCode).toBe(403);
    // A run now: administrators only (the app's own service; WEATHER_URL is off in tests, the cached weather stands).
    const admin = await createUser(t, 'admin');
    const refused = await t.app.inject({ method: 'POST', url: forecastApi.run, headers: maizeFarmer.headers });
    expect(refused.statusCode).toBe(403);
    const ran = await t.app.inject({ method: 'POST', url: forecastApi.run, headers: admin.headers });
    expect(ran.statusCode, ran.body).toBe(200);
    expect(ran.json()).toMatchObject({ run_id: expect.any(Number), weather: 'known' });

    // The national bulletin: administrators only; the districts next to Mbale (high, nothing confirmed
    // there yet) to walk first, Mbale (high, confirmed) after them.
    const bulletinRefused = await t.app.inject({
      method: 'GET',
      url: forecastApi.bulletinCsv,
      headers: officer.headers,
    });
    expect(bulletinRefused.statusCode).toBe(403);
    const bulletin = await t.app.inject({ method: 'GET', url: forecastApi.bulletinCsv, headers: admin.headers });
    expect(bulletin.statusCode, bulletin.body).toBe(200);
    const lines = bulletin.body.trim().split('\n');
    expect(lines[0]).toBe(
      'walk_first,district,name,country,crop,next_week_risk,high_days,confirmed_14_days,fields_walked_last_week,median_incidence,run_at,advisories_held',
    );
    const neighbours = districtByCode(MBALE)!.neighbours;
    const firstRows = lines.slice(1, 1 + neighbours.length).map((l) => l.split(','));
    expect(new Set(firstRows.map((r) => r[1]))).toEqual(new Set(neighbours));
    for (const r of firstRows) expect([r[4], r[5], r[7]]).toEqual(['maize', 'high', '0']);
    const mbale = lines.find((l) => l.includes(`,${MBALE},Mbale,UG,maize,`))!.split(',');
    // Mbale comes next, not numbered: the walk_first column numbers only the districts to walk first.
    expect(lines.indexOf(lines.find((l) => l.includes(`,${MBALE},Mbale,UG,maize,`))!)).toBe(neighbours.length + 1);
    expect([mbale[5], mbale[7], mbale[0]]).toEqual(['high', String(SMALL_COUNT_MIN), '']);
    // The walk in Bukedea (10 plants, none with rust) is one farmer's: under the small-count rule the
    // bulletin shows no fields walked and no median, as the open feed does.
    const bukedea = lines.find((l) => l.includes(`,${BUKEDEA},Bukedea,UG,maize,`))!.split(',');
    expect([bukedea[8], bukedea[9]]).toEqual(['0', '']);

    // The same bulletin as PDF, in the reader's language: the walk-first districts lead it.
    expect(
      (await t.app.inject({ method: 'GET', url: forecastApi.bulletinPdf, headers: maizeFarmer.headers })).statusCode,
    ).toBe(403);
    const pdf = await t.app.inject({ method: 'GET', url: forecastApi.bulletinPdf, headers: admin.headers });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf.rawPayload);
    const first = districtByCode(firstRows[0][1])!;
    expect(text).toContain('Walk first: a high week and nothing confirmed yet');
    expect(text.indexOf(`1. ${first.name} (${first.code}), Maize`)).toBeGreaterThan(-1);
    expect(text.indexOf(`${first.name} (${first.code})`)).toBeLessThan(text.indexOf('Mbale (UG-209)'));
  });

  it('gives the bulletin to an officer an administrator made national, and to no other officer', async () => {
    const admin = await createUser(t, 'admin');
    const national = await createUser(t, 'officer', { districts: [KAMPALA] });
    const pendingOfficer = await createUser(t, 'officer', { districts: [KAMPALA], vetting: 'pending' });
    const put = (who: TestUser, id: number, value: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: vettingApi.nationalPath(id),
        headers: who.headers,
        payload: { national: value },
      });
    const csvFor = (who: TestUser) =>
      t.app.inject({ method: 'GET', url: forecastApi.bulletinCsv, headers: who.headers });
    expect((await csvFor(national)).statusCode).toBe(403);
    expect((await put(national, national.id, true)).statusCode).toBe(403); // only administrators grant it
    expect((await put(admin, pendingOfficer.id, true)).statusCode).toBe(409);
    expect((await put(admin, maizeFarmer.id, true)).statusCode).toBe(404);
    const granted = await put(admin, national.id, true);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ role: 'officer', officer: { national: true } });
    const [audit] = await t.deps.database.db
      .select()
      .from(officerProfiles)
      .where(eq(officerProfiles.userId, national.id));
    expect(audit).toMatchObject({ national: true, nationalChangedBy: admin.id });
    expect((await csvFor(national)).statusCode).toBe(200);
    const pdf = await t.app.inject({ method: 'GET', url: forecastApi.bulletinPdf, headers: national.headers });
    expect(pdf.statusCode).toBe(200);
    expect(await get<{ national: boolean }>(extensionApi.me, national)).toMatchObject({ national: true });
    // Their districts stay theirs: the national scope opens the bulletin, not other districts' weeks.
    expect(
      (await t.app.inject({ method: 'GET', url: extensionApi.weekPath(MBALE), headers: national.headers })).statusCode,
    ).toBe(403);
    // An officer of a district who is not national: 403, as before.
    expect((await csvFor(officer)).statusCode).toBe(403);
    expect((await put(admin, national.id, false)).json()).toMatchObject({ officer: { national: false } });
    expect((await csvFor(national)).statusCode).toBe(403);
    await put(admin, national.id, true);
  });

  it('emails the bulletin on Monday morning to administrators and national officers, once a week, with its CSV and PDF; one SMS to a reader without email', async () => {
    const db = t.deps.database.db;
    // A national officer who signed up without an email address: the SMS and the in-app notice instead.
    const noEmail = await createUser(t, 'officer', { districts: [KAMPALA] });
    await db.update(users).set({ email: null }).where(eq(users.id, noEmail.id));
    await db.update(officerProfiles).set({ national: true }).where(eq(officerProfiles.userId, noEmail.id));
    const admins = await db.execute(sql`select id, email from users where role = 'admin'`);
    const nationals = await db.execute(
      sql`select u.id, u.email from users u join officer_profiles p on p.user_id = u.id where p.national`,
    );
    const everyone = [...admins.rows, ...nationals.rows];
    const readers = everyone.filter((r) => r.email !== null).map((r) => String(r.email));
    expect(readers.length).toBeGreaterThanOrEqual(3);
    // Two processes, each with its own service, and the hourly sweep: one email per reader and week.
    const delivery = testDelivery(t);
    const applications = createApplicationsService(
      { db, clock: t.clock, delivery, config: t.deps.config },
      { endAllSessions: () => Promise.reject(new Error('the bulletin withdraws nobody')) },
    );
    const services = [1, 2].map(() =>
      createForecastService(
        {
          db,
          clock: t.clock,
          weather: createOpenMeteo({ url: 'http://127.0.0.1:9', timeoutMs: 100 }),
          delivery,
          config: t.deps.config,
        },
        {
          outbreak: { weeklyCounts: async () => [] },
          followUps: { bringForward: async () => 0 },
          national: applications,
          clinicFarmerSql: clinicSmsFarmerSql,
        },
      ),
    );
    const now = t.clock.now();
    t.clock.set(new Date('2026-11-29T09:00:00Z')); // a Sunday
    expect(await services[0].sendBulletin()).toBe(0);
    t.clock.set(new Date('2026-11-30T02:00:00Z')); // Monday before 06:00 in East Africa
    expect(await services[0].sendBulletin()).toBe(0);
    t.clock.set(new Date('2026-11-30T04:00:00Z'));
    const before = t.smtp.inbox.length;
    await Promise.all(services.map((s) => s.sendBulletin()));
    t.clock.set(new Date('2026-11-30T05:00:00Z')); // the next hour's sweep
    await services[1].sendBulletin();
    t.clock.set(now);
    const mails = t.smtp.inbox.slice(before);
    expect(mails.map((m) => m.to).sort()).toEqual(readers.sort());
    expect(mails.some((m) => m.to === officer.email)).toBe(false);
    const mail = mails[0];
    expect(mail.subject).toBe('Kutu rust bulletin, week 2026-W49');
    const firstNeighbour = districtByCode(districtByCode(MBALE)!.neighbours[0])!;
    expect(mail.text).toContain('Walk first, a high week and nothing confirmed yet:');
    expect(mail.text).toContain(`(${firstNeighbour.code}), Maize: high on`);
    expect(mail.attachments.map((a) => a.filename)).toEqual([
      'kutu-rust-bulletin-2026-W49.csv',
      'kutu-rust-bulletin-2026-W49.pdf',
    ]);
    expect(mail.attachments[0].content.toString()).toMatch(/^walk_first,district,/);
    expect(mail.attachments[1].content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // No email: one SMS of one part with the week and the count, no mail; everyone gets one in-app notice.
    const sms = smsTo(noEmail);
    expect(sms).toHaveLength(1);
    expect(sms[0].text).toMatch(/^Kutu rust bulletin 2026-W49: districts to walk first next week: [1-9]\d*\./);
    expect(smsParts(sms[0].text)).toHaveLength(1);
    const bulletinSms = t.outbox.list().filter((e) => e.channel === 'sms' && e.text.startsWith('Kutu rust bulletin'));
    expect(bulletinSms.map((e) => e.to)).toEqual([noEmail.phone]);
    const notices = await db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(eq(notifications.type, 'rust_bulletin'));
    expect(notices.map((n) => n.userId).sort()).toEqual(everyone.map((r) => Number(r.id)).sort());
  });

  it("raises nothing on one farmer's walk: not the district, not its neighbours, no advisory", async () => {
    const db = t.deps.database.db;
    const walker = await createUser(t, 'farmer');
    const field = await insertField(db, walker.id, 'maize', { district: KISUMU.code });
    const nextDoor = await createUser(t, 'farmer');
    await insertField(db, nextDoor.id, 'maize', { district: KISUMU.neighbours[0] });
    // An unheld walk (the farmer's own district) that found rust on 8 plants of 10, yesterday.
    await db.insert(scoutingWalks).values({
      fieldId: field.id,
      userId: walker.id,
      channel: 'web',
      walkedAt: new Date(t.clock.now().getTime() - 86_400_000),
      stops: [{ looked: 10, rust: 8 }],
      plantsLooked: 10,
      plantsRust: 8,
      adviceRule: 'test',
      rulesVersion: 'test',
      adviceAction: 'keep_walking',
      adviceSteps: [],
      adviceSources: [],
      createdAt: t.clock.now(),
    });
    stub.state.mode = 'wet';
    await forecast.refresh();
    for (const code of [KISUMU.code, ...KISUMU.neighbours]) {
      const d = await get<DistrictForecastReply>(`${forecastApi.districtPath(code)}?crop=maize`, expert);
      expect(d.worst, code).toBe('moderate');
      expect(d.days[0].basis, code).toMatchObject({ walked_rust_here: false, neighbours: [], unnamed_near: false });
    }
    expect(smsTo(walker)).toHaveLength(0);
    expect(smsTo(nextDoor)).toHaveLength(0);
    const advised = await forecast.advisoriesSince('2026-11-30');
    expect(advised.filter((a) => a.district === KISUMU.code || KISUMU.neighbours.includes(a.district))).toEqual([]);
  });

  it("counts a walk held as far from its farmer as rust near only once it is confirmed, and names the walks' median", async () => {
    const db = t.deps.database.db;
    const walked = async (heldFor: 'far_field' | null, rust: number) => {
      const farmer = await createUser(t, 'farmer');
      const field = await insertField(db, farmer.id, 'maize', { district: NAIROBI.code });
      const [w] = await db
        .insert(scoutingWalks)
        .values({
          fieldId: field.id,
          userId: farmer.id,
          channel: 'web',
          walkedAt: new Date(t.clock.now().getTime() - 86_400_000),
          stops: [{ looked: 10, rust }],
          plantsLooked: 10,
          plantsRust: rust,
          adviceRule: 'test',
          rulesVersion: 'test',
          adviceAction: 'keep_walking',
          adviceSteps: [],
          adviceSources: [],
          heldFor,
          createdAt: t.clock.now(),
        })
        .returning();
      return w;
    };
    const held = await walked('far_field', 6);
    await forecast.refresh();
    const before = await get<DistrictForecastReply>(`${forecastApi.districtPath(NAIROBI.code)}?crop=maize`, expert);
    expect(before.worst).toBe('moderate');
    expect(before.days[0].basis).toMatchObject({ walked_rust_here: false, unnamed_near: false });

    // Confirmed by an officer, it counts: rust here, not yet shown (one farmer), so unnamed.
    await db.update(scoutingWalks).set({ confirmedAt: t.clock.now() }).where(sql`id = ${held.id}`);
    await forecast.refresh();
    const after = await get<DistrictForecastReply>(`${forecastApi.districtPath(NAIROBI.code)}?crop=maize`, expert);
    expect(after.worst).toBe('high');
    expect(after.days[0].basis).toMatchObject({ walked_rust_here: false, unnamed_near: true, walked_median: null });

    // Walks by SMALL_COUNT_MIN farmers: the walks' rust is named, with their median share.
    for (let i = 1; i < SMALL_COUNT_MIN; i++) await walked(null, 2);
    await forecast.refresh();
    const shown = await get<DistrictForecastReply>(`${forecastApi.districtPath(NAIROBI.code)}?crop=maize`, expert);
    expect(shown.days[0].basis).toMatchObject({ walked_rust_here: true, unnamed_near: false, walked_median: 0.2 });
  });
});
