import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forecastApi, type PendingAdvisoriesReply, SMALL_COUNT_MIN } from '@kutu/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCoordinator } from '../../adapters/coordinator.ts';
import { createOpenMeteo } from '../../adapters/weather.ts';
import { deliveries, notifications, officerProfiles, users } from '../../db/schema/index.ts';
import { createListCaches } from '../../lib/list-cache.ts';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { insertField } from '../../../test/support/fields.ts';
import { weatherPointsOf } from '../../../test/support/open-meteo.ts';
import { clinicFarmerSql, fieldPhotoSql, followUpSources, outbreakSources } from '../../ports.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createFieldsService } from '../fields/fields.service.ts';
import { createFollowUpService } from '../followup/followup.service.ts';
import { createOutbreakService } from '../outbreak/outbreak.service.ts';
import { createEscalationService } from '../review/escalation.service.ts';
import { createApplicationsService } from '../vetting/applications.service.ts';
import { createForecastService } from './forecast.service.ts';
import { lastSendAt, nextSendAt } from './hold.ts';

// Mbale (UG-209) with maize rust confirmed; its neighbour Bukedea (UG-219): both high on cool wet nights.
const MBALE = 'UG-209';
const BUKEDEA = 'UG-219';
const wet = readFileSync(new URL('../../../test/fixtures/open-meteo/cool-wet-nights.json', import.meta.url), 'utf8');

describe('lastSendAt and nextSendAt (10:00 East Africa Time = 07:00 UTC)', () => {
  it('gives the latest send at or before an instant and the first at or after it', () => {
    expect(lastSendAt(new Date('2026-12-01T06:59:00Z'), 10).toISOString()).toBe('2026-11-30T07:00:00.000Z');
    expect(lastSendAt(new Date('2026-12-01T07:00:00Z'), 10).toISOString()).toBe('2026-12-01T07:00:00.000Z');
    // 23:30 UTC is already the next local day (02:30 EAT): its send is at 07:00 UTC that day.
    expect(lastSendAt(new Date('2026-12-01T23:30:00Z'), 10).toISOString()).toBe('2026-12-01T07:00:00.000Z');
    expect(nextSendAt(new Date('2026-12-01T07:00:00Z'), 10).toISOString()).toBe('2026-12-01T07:00:00.000Z');
    expect(nextSendAt(new Date('2026-12-01T07:00:01Z'), 10).toISOString()).toBe('2026-12-02T07:00:00.000Z');
    expect(nextSendAt(new Date('2026-12-01T03:00:00Z'), 10).toISOString()).toBe('2026-12-01T07:00:00.000Z');
  });
});

describe('a person can hold a national send', () => {
  let t: TestContext;
  let stub: Server;
  let forecast: ReturnType<typeof createForecastService>;
  let admin: TestUser;
  let national: TestUser;
  let officer: TestUser;
  let expert: TestUser;
  let heldFarmer: TestUser;
  let toldFarmer: TestUser;
  const reason = 'The weather service shows a storm that is not there; checking with the met office first';

  beforeAll(async () => {
    stub = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const lats = (url.searchParams.get('latitude') ?? '').split(',');
      const lngs = (url.searchParams.get('longitude') ?? '').split(',');
      const body = lats.map((lat, i) => ({ ...JSON.parse(wet), latitude: Number(lat), longitude: Number(lngs[i]) }));
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify(body.length === 1 ? body[0] : body));
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    // ADVISORY_SEND_HOUR left at its default: 10:00 East Africa Time.
    t = await createTestApp();
    t.clock.set(new Date('2026-12-01T03:00:00Z')); // 06:00 EAT, Tuesday
    const db = t.deps.database.db;
    const delivery = testDelivery(t);
    const outbreak = createOutbreakService(
      {
        db,
        clock: t.clock,
        jobs: t.deps.jobs,
        delivery,
        lists: createListCaches(createMemoryCoordinator(), t.clock),
      },
      outbreakSources,
    );
    const escalation = createEscalationService(db);
    const fields = createFieldsService({ db, clock: t.clock }, fieldPhotoSql);
    const followUps = createFollowUpService(
      { db, clock: t.clock, delivery, config: t.deps.config },
      escalation,
      fields,
      followUpSources,
    );
    const applications = createApplicationsService(
      { db, clock: t.clock, delivery, config: t.deps.config },
      { endAllSessions: () => Promise.reject(new Error('no one is withdrawn here')) },
    );
    const port = (stub.address() as AddressInfo).port;
    forecast = createForecastService(
      {
        db,
        clock: t.clock,
        weather: createOpenMeteo({ url: `http://127.0.0.1:${port}`, timeoutMs: 2000 }),
        weatherPoints: weatherPointsOf(BUKEDEA, MBALE),
        delivery,
        config: t.deps.config,
      },
      { outbreak, followUps, national: applications, clinicFarmerSql },
    );
    admin = await createUser(t, 'admin');
    national = await createUser(t, 'officer', { districts: ['UG-102'] });
    await db.update(officerProfiles).set({ national: true }).where(eq(officerProfiles.userId, national.id));
    officer = await createUser(t, 'officer', { districts: [BUKEDEA] });
    expert = await createUser(t, 'expert', { district: BUKEDEA });
    heldFarmer = await createUser(t, 'farmer');
    toldFarmer = await createUser(t, 'farmer');
    await insertField(db, heldFarmer.id, 'maize', { district: BUKEDEA });
    await insertField(db, toldFarmer.id, 'maize', { district: MBALE });
    // Both chose a call too: the held one gets none.
    await db.update(users).set({ voiceWarnings: true }).where(sql`${users.id} in (${heldFarmer.id}, ${toldFarmer.id})`);
    await db.execute(
      sql`insert into outbreak_counts (district, crop, week_start, demo, confirmed) values (${MBALE}, 'maize', '2026-11-30', false, ${SMALL_COUNT_MIN})`,
    );
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => stub.close(r));
  });

  /** What reached a person: outbox rows by channel (SMS, voice…) and in-app notices of the advisory. */
  const reached = async (u: TestUser) => {
    const db = t.deps.database.db;
    const rows = await db.select().from(deliveries).where(eq(deliveries.userId, u.id));
    const inApp = await db
      .select()
      .from(notifications)
      .where(sql`${notifications.userId} = ${u.id} and ${notifications.type} = 'rust_advisory'`);
    return { channels: [...new Set(rows.map((r) => r.channel))].sort(), inApp: inApp.length };
  };
  const nothing = { channels: [], inApp: 0 };
  const pending = async (who: TestUser) => {
    const res = await t.app.inject({ method: 'GET', url: forecastApi.pending, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PendingAdvisoriesReply>();
  };
  const hold = (who: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: forecastApi.holds, headers: who.headers, payload });

  it('prepares the advisories at the run and sends none before the send hour', async () => {
    await forecast.refresh();
    expect(await reached(toldFarmer)).toEqual(nothing);
    expect(await reached(heldFarmer)).toEqual(nothing);
    const p = await pending(national);
    expect(p.send_hour_eat).toBe(10);
    expect(p.next_send_at).toBe('2026-12-01T07:00:00.000Z');
    const bukedea = p.advisories.find((a) => a.district === BUKEDEA && a.crop === 'maize')!;
    // By district with its reasons: the first high day and what it rests on.
    expect(bukedea).toMatchObject({ name: 'Bukedea', state: 'due', due_at: '2026-12-01T07:00:00.000Z', told_at: null });
    expect(bukedea.basis.neighbours).toEqual(['Mbale']);
    expect(p.advisories.find((a) => a.district === MBALE && a.crop === 'maize')?.state).toBe('due');
  });

  it('lets no farmer, ordinary officer or expert see or hold, and wants a reason', async () => {
    for (const who of [heldFarmer, officer, expert]) {
      expect((await hold(who, { district: BUKEDEA, reason })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: forecastApi.pending, headers: who.headers })).statusCode).toBe(
        403,
      );
    }
    expect((await hold(national, { district: BUKEDEA })).statusCode).toBe(400);
    const short = await hold(national, { district: BUKEDEA, reason: ' no ' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Say why the advisories are held');
    expect((await hold(national, { district: 'UG-999', reason })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: forecastApi.liftHoldPath(1), headers: officer.headers })).statusCode,
    ).toBe(403);
  });

  it('keeps a held district from every channel at the send hour, while the others go then and not before', async () => {
    const held = await hold(national, { district: BUKEDEA, reason });
    expect(held.statusCode, held.body).toBe(201);
    expect((await hold(admin, { district: BUKEDEA, reason })).statusCode).toBe(409);

    t.clock.set(new Date('2026-12-01T06:59:00Z')); // 09:59 EAT
    await forecast.sendDue();
    expect(await reached(toldFarmer)).toEqual(nothing);

    t.clock.set(new Date('2026-12-01T07:00:00Z')); // 10:00 EAT: the send
    await forecast.sendDue();
    expect(await reached(toldFarmer)).toEqual({ channels: ['sms', 'voice'], inApp: 1 });
    expect(await reached(heldFarmer)).toEqual(nothing);
    // The district's officer and expert are not told either.
    expect((await reached(officer)).inApp).toBe(0);
    expect((await reached(expert)).inApp).toBe(0);

    // Logged: who, when, why; shown by district beside the sent ones.
    const p = await pending(admin);
    expect(p.holds).toEqual([
      {
        id: held.json().id,
        district: BUKEDEA,
        name: 'Bukedea',
        week_start: '2026-11-30',
        reason,
        held: { by: national.username, at: '2026-12-01T03:00:00.000Z' },
        lifted: null,
      },
    ]);
    expect(p.advisories.find((a) => a.district === BUKEDEA && a.crop === 'maize')).toMatchObject({
      state: 'held',
      due_at: null,
    });
    expect(p.advisories.find((a) => a.district === MBALE && a.crop === 'maize')).toMatchObject({
      state: 'sent',
      told_at: '2026-12-01T07:00:00.000Z',
    });

    // In the bulletin: the held district's rows carry the reason.
    const csv = await t.app.inject({ method: 'GET', url: forecastApi.bulletinCsv, headers: national.headers });
    expect(csv.statusCode).toBe(200);
    const header = csv.body.split('\n')[0].split(',');
    expect(header.at(-1)).toBe('advisories_held');
    const bukedeaLine = csv.body.split('\n').find((l) => l.includes(`,${BUKEDEA},Bukedea,UG,maize,`))!;
    expect(bukedeaLine).toContain(reason);
    expect(csv.body.split('\n').find((l) => l.includes(`,${MBALE},Mbale,UG,maize,`))).not.toContain(reason);
  });

  it('sends a lifted district at the next send hour, not at once', async () => {
    const [{ id }] = (await pending(admin)).holds;
    t.clock.set(new Date('2026-12-01T08:00:00Z')); // 11:00 EAT
    const lifted = await t.app.inject({ method: 'POST', url: forecastApi.liftHoldPath(id), headers: admin.headers });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json()).toEqual({ id, next_send_at: '2026-12-02T07:00:00.000Z' });
    expect(
      (await t.app.inject({ method: 'POST', url: forecastApi.liftHoldPath(id), headers: admin.headers })).statusCode,
    ).toBe(409);
    expect(
      (await t.app.inject({ method: 'POST', url: forecastApi.liftHoldPath(9999), headers: admin.headers })).statusCode,
    ).toBe(404);
    await forecast.sendDue();
    expect(await reached(heldFarmer)).toEqual(nothing);
    const p = await pending(national);
    expect(p.holds[0].lifted).toEqual({ by: admin.username, at: '2026-12-01T08:00:00.000Z' });
    expect(p.advisories.find((a) => a.district === BUKEDEA && a.crop === 'maize')).toMatchObject({
      state: 'due',
      due_at: '2026-12-02T07:00:00.000Z',
    });

    // Tuesday's weather is past its maximum age by Wednesday's send: nothing goes from it (docs/decisions/0126)...
    t.clock.set(new Date('2026-12-02T07:00:00Z')); // Wednesday 10:00 EAT
    await forecast.sendDue();
    expect(await reached(heldFarmer)).toEqual(nothing);
    // ...but from Wednesday morning's run, as the forecast runs every few hours.
    t.clock.set(new Date('2026-12-02T05:00:00Z'));
    await forecast.refresh();
    t.clock.set(new Date('2026-12-02T07:00:00Z'));
    await forecast.sendDue();
    expect(await reached(heldFarmer)).toEqual({ channels: ['sms', 'voice'], inApp: 1 });
  });

  it("sends the latest run now on a national officer's word, once a week per farmer; no one else may", async () => {
    const send = (who: TestUser) => t.app.inject({ method: 'POST', url: forecastApi.sendNow, headers: who.headers });
    for (const who of [heldFarmer, officer, expert]) expect((await send(who)).statusCode).toBe(403);
    // A farmer who made a maize field next door after the send hour: told at the next one, or now when a person says so.
    const late = await createUser(t, 'farmer');
    await insertField(t.deps.database.db, late.id, 'maize', { district: MBALE, createdAt: t.clock.now() });
    expect(await reached(late)).toEqual(nothing);
    const sent = await send(national);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await reached(late)).toEqual({ channels: ['sms'], inApp: 1 });
    expect((await send(admin)).statusCode).toBe(200);
    const db = t.deps.database.db;
    expect(await db.select().from(deliveries).where(eq(deliveries.userId, late.id))).toHaveLength(1);
  });

  it("shows an administrator next week's risk", async () => {
    const res = await t.app.inject({ method: 'GET', url: `${forecastApi.week}?crop=maize`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
  });
});
