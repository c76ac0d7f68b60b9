import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  api,
  type CallbackPage,
  extensionApi,
  fieldsApi,
  SMALL_COUNT_MIN,
  type NotificationList,
  notificationsApi,
  type ApplicationPage,
  vettingApi,
  type OfficerWeek,
  type OutbreakTablePage,
  outbreakApi,
  phoneApi,
  reviewApi,
  type ExpertReview,
  type Walk,
} from '@kutu/contract';
import { eq } from 'drizzle-orm';
import { analyses, callbackRequests, clinicVisits, expertReviews, followUps, users } from '../../db/schema/index.ts';
import { createMemoryCoordinator } from '../../adapters/coordinator.ts';
import { renderStored, type StoredMessage } from '../../i18n/i18n.ts';
import { createListCaches } from '../../lib/list-cache.ts';
import { createTestApp, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { pdfText } from '../../../test/support/pdf.ts';
import { raiseMaizeAlert } from '../../../test/support/farmers.ts';
import { createOutbreakService } from '../outbreak/outbreak.service.ts';
import { createApplicationsService } from '../vetting/applications.service.ts';
import { createEscalationService } from '../review/escalation.service.ts';
import { createExtensionService } from './extension.service.ts';
import { createFieldsService } from '../fields/fields.service.ts';
import { createWalksService } from '../fields/walks.service.ts';
import { createFollowUpService } from '../followup/followup.service.ts';
import { insertField } from '../../../test/support/fields.ts';
import { insertRustPhoto } from '../../../test/support/photos.ts';
import { extensionSources, fieldPhotoSql, followUpSources, outbreakSources } from '../../ports.ts';

// These scenarios test the privacy rule's logic at the minimum their data were written for (weeks of 1, 2
// and 3); that every surface follows the contract's minimum, whatever it is, is minimum-five.test.ts's job.
vi.mock(import('@kutu/contract/outbreak-paths'), async (original) => ({
  ...(await original()),
  SMALL_COUNT_MIN: 3,
  SMALL_COUNT_WORDS: { min: 3, max: 2 },
}));

// Kumi (UG-208), its neighbour Bukedea (UG-219), Kampala (UG-102) far away.
const KUMI = 'UG-208';
const BUKEDEA = 'UG-219';
const KAMPALA = 'UG-102';
const NOW = new Date('2026-11-25T09:00:00Z');
const THIS_WEEK = '2026-11-23';

describe('extension officers', () => {
  let t: TestContext;
  let admin: TestUser;
  let expert: TestUser;
  let officer: TestUser;
  let pending: TestUser;
  let outbreak: ReturnType<typeof createOutbreakService>;
  let seconds = 0;

  beforeAll(async () => {
    const coordinator = createMemoryCoordinator();
    t = await createTestApp({ coordinator });
    t.clock.set(NOW);
    admin = await createUser(t, 'admin');
    expert = await createUser(t, 'expert');
    officer = await createUser(t, 'officer', { districts: [KUMI] });
    pending = await createUser(t, 'officer', { districts: [KUMI], vetting: 'pending', language: 'sw' });
    outbreak = createOutbreakService(
      {
        db: t.deps.database.db,
        clock: t.clock,
        jobs: t.deps.jobs,
        delivery: testDelivery(t),
        lists: createListCaches(coordinator, t.clock),
      },
      outbreakSources,
    );
  }, 180_000);
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, who: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload && { payload }) });
  const week = (who: TestUser, code = KUMI) => send('GET', extensionApi.weekPath(code), who);

  /** A farmer of `district` with a photo that an expert confirmed as rust, counted by the outbreak service. */
  async function confirmedCase(district: string, at: Date) {
    const f = await createUser(t, 'farmer', { district });
    seconds += 1;
    const id = await insertRustPhoto(
      t.deps.database.db,
      f.id,
      'analyses/none.jpg',
      new Date(at.getTime() + seconds * 1000),
    );
    await t.deps.database.db
      .insert(expertReviews)
      .values({ analysisId: id, reviewerId: expert.id, verdict: 'common_rust', reviewedAt: at });
    await outbreak.record(id);
    return { farmer: f, analysisId: id };
  }

  it('takes an application over the API: pending, not yet in', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: api.auth.registerOfficer,
      payload: {
        email: 'dao.kumi@example.org',
        username: 'dao_kumi',
        password: 'Str0ng!Passw0rd',
        confirm_password: 'Str0ng!Passw0rd',
        phone_number: '+256772000111',
        office: 'Kumi District Agricultural Office',
        districts: ['ug-208', 'UG-219', 'UG-208'],
        consent: { service: true, sms: true },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    // The officer agreed to the service and SMS on the form, as an officer (photos train nothing of theirs).
    const { rows: agreed } = await t.deps.database.execute(
      `select c.purpose, c.granted from consents c join users u on u.id = c.user_id where u.username = 'dao_kumi' order by c.purpose`,
    );
    expect(agreed).toEqual([
      { purpose: 'service', granted: true },
      { purpose: 'sms', granted: true },
    ]);
    const { rows } = await t.deps.database.execute(
      `select u.role, u.district, p.districts, a.role as applied_as, a.status from users u
       join officer_profiles p on p.user_id = u.id join role_applications a on a.user_id = u.id
       where u.username = 'dao_kumi'`,
    );
    expect(rows[0]).toMatchObject({
      role: 'officer',
      district: KUMI,
      districts: [KUMI, BUKEDEA],
      applied_as: 'officer',
      status: 'pending',
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: api.auth.registerOfficer,
      payload: {
        username: 'x_y_z',
        password: 'Str0ng!Passw0rd',
        confirm_password: 'Str0ng!Passw0rd',
        phone_number: '+256772000112',
        office: 'Office',
        districts: [],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad).fields ?? {})).toEqual(expect.arrayContaining(['districts', 'consent']));
  });

  it('keeps a pending officer out until an administrator approves, then lets them into their district only', async () => {
    const me = await send('GET', extensionApi.me, pending);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ status: 'pending', districts: [{ code: KUMI, name: 'Kumi' }] });
    const waiting = await week(pending);
    expect(waiting.statusCode).toBe(403);
    expect(errorOf(waiting).code).toBe('OFFICER_PENDING');

    // Only an administrator lists and decides.
    expect((await send('GET', vettingApi.of('officer').applications, expert)).statusCode).toBe(403);
    expect((await send('POST', vettingApi.of('officer').approvePath(pending.id), officer, {})).statusCode).toBe(403);
    const list = (
      await send('GET', `${vettingApi.of('officer').applications}?status=pending`, admin)
    ).json() as ApplicationPage;
    expect(list.results.map((a) => a.id)).toContain(pending.id);
    const ok = await send('POST', vettingApi.of('officer').approvePath(pending.id), admin, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      role: 'officer',
      status: 'approved',
      officer: { districts: [{ code: KUMI, name: 'Kumi' }] },
    });
    // Twice is a conflict, as for experts.
    expect(
      (await send('POST', vettingApi.of('officer').refusePath(pending.id), admin, { reason: 'Too late' })).statusCode,
    ).toBe(409);
    const told = (await send('GET', notificationsApi.list, pending)).json() as NotificationList;
    expect(told.results.some((n) => n.type === 'officer_approved')).toBe(true);

    expect((await week(pending)).statusCode).toBe(200);
    const other = await week(pending, KAMPALA);
    expect(other.statusCode).toBe(403);
    expect((await send('GET', extensionApi.reportCsvPath(KAMPALA), pending)).statusCode).toBe(403);
    expect((await send('GET', extensionApi.reportPdfPath(KAMPALA), pending)).statusCode).toBe(403);
    expect((await week(pending, 'UG-999')).statusCode).toBe(400);
  });

  it('refuses a refused officer with their own code', async () => {
    const refused = await createUser(t, 'officer', { districts: [KUMI], vetting: 'refused' });
    const res = await week(refused);
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('OFFICER_REFUSED');
  });

  it('is not an expert: no queue, no verdicts, no moderation, no outbreak table, but the outbreak map; and only officers see a week', async () => {
    const expertRoutes: ['GET' | 'PUT' | 'POST', string, object?][] = [
      ['GET', reviewApi.queue],
      ['PUT', reviewApi.reviewPath(1), { verdict: 'healthy' }],
      ['POST', reviewApi.claimPath(1), {}],
      ['PUT', '/api/community/posts/moderate/1/', { action: 'approve' }],
      ['GET', outbreakApi.districts],
    ];
    for (const [method, url, body] of expertRoutes) {
      const res = await send(method, url, officer, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    // The published outbreak map and a district's trend (small counts hidden), as farmers read them; not
    // before an administrator approves the officer.
    expect((await send('GET', `${outbreakApi.map}?crop=maize`, officer)).statusCode).toBe(200);
    expect((await send('GET', `${outbreakApi.trendPath(KUMI)}?crop=maize`, officer)).statusCode).toBe(200);
    const waiting = await createUser(t, 'officer', { districts: [KUMI], vetting: 'pending' });
    expect((await send('GET', `${outbreakApi.map}?crop=maize`, waiting)).statusCode).toBe(403);
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    for (const who of [farmer, expert, admin]) expect((await week(who)).statusCode).toBe(403);
    const body = { farmer_id: farmer.id, kind: 'called', note: 'Called' };
    expect((await send('POST', extensionApi.actionsPath(KUMI), expert, body)).statusCode).toBe(403);
  });

  it('counts the week as the outbreak table does, with the neighbours under the small-count rule', async () => {
    // Kumi: one more than the minimum this week, the minimum last week; Bukedea one fewer (hidden).
    for (let i = 0; i <= SMALL_COUNT_MIN; i += 1) await confirmedCase(KUMI, new Date('2026-11-24T08:00:00Z'));
    for (let i = 0; i < SMALL_COUNT_MIN; i += 1) await confirmedCase(KUMI, new Date('2026-11-17T08:00:00Z'));
    for (let i = 1; i < SMALL_COUNT_MIN; i += 1) await confirmedCase(BUKEDEA, new Date('2026-11-24T08:00:00Z'));
    const w = (await week(officer)).json() as OfficerWeek;
    expect(w.week_start).toBe(THIS_WEEK);
    const maize = w.crops.find((c) => c.crop === 'maize')!;
    expect(maize.confirmed).toBe(SMALL_COUNT_MIN + 1);
    expect(maize.trend.at(-2)).toMatchObject({ week_start: '2026-11-16', confirmed: SMALL_COUNT_MIN });
    expect(maize.direction).toBe('rising');

    const table = (
      await send('GET', `${outbreakApi.districts}?crop=maize&page_size=200`, expert)
    ).json() as OutbreakTablePage;
    const row = table.results.find((r) => r.code === KUMI)!;
    expect(row.trend.at(-1)?.count).toBe(maize.confirmed);
    expect(row.trend.at(-2)?.count).toBe(maize.trend.at(-2)?.confirmed);

    const bukedea = w.neighbours.find((n) => n.code === BUKEDEA)!;
    expect(bukedea.confirmed).toEqual({ count: null, below_min: true });
  });

  it('shows the alert and its outbox, clinics, follow-ups, the queue and the farmers to call; a call recorded reaches the expert', async () => {
    const db = t.deps.database.db;
    await createUser(t, 'farmer', { district: KUMI });
    // Confirmed cases above may have raised Kumi's alert already (the rule); else one is raised here.
    const { rows: open } = await t.deps.database.execute(
      `select id from outbreak_alerts where district = $1 and crop = 'maize' and ended_at is null`,
      [KUMI],
    );
    const alertId = open.length > 0 ? Number(open[0].id) : await raiseMaizeAlert(t.deps.database, KUMI);
    await outbreak.deliver(alertId);
    const { rows: sent } = await t.deps.database.execute(
      `select count(*)::int as n, count(distinct user_id)::int as people from deliveries where key like $1`,
      [`outbreak:${alertId}|%`],
    );
    const { farmer, analysisId } = await confirmedCase(KUMI, new Date('2026-11-24T09:00:00Z'));
    await db.insert(followUps).values({
      userId: farmer.id,
      analysisId,
      fieldId: (await insertField(db, farmer.id)).id,
      crop: 'maize',
      dueAt: NOW,
      state: 'compared',
      outcome: 'worse',
      closedAt: new Date('2026-11-25T08:00:00Z'),
      createdAt: new Date('2026-11-18T08:00:00Z'),
    });
    await db.insert(clinicVisits).values({
      expertId: expert.id,
      farmerId: farmer.id,
      crop: 'maize',
      growthStage: 'tasseling',
      shareAffected: 30,
      analysisIds: [analysisId],
      verdict: 'common_rust',
      createdAt: NOW,
    });
    const caller = await createUser(t, 'farmer', { district: KUMI });
    await db.insert(callbackRequests).values({ userId: caller.id, language: 'en', channel: 'ussd', createdAt: NOW });
    await db
      .insert(expertReviews)
      .values({
        analysisId: (await confirmedCase(KUMI, NOW)).analysisId,
        askedAt: new Date(NOW.getTime() - 3_600_000),
        question: '?',
      })
      .onConflictDoUpdate({
        target: expertReviews.analysisId,
        set: { reviewedAt: null, verdict: null, askedAt: new Date(NOW.getTime() - 3_600_000) },
      });

    // Three unsure photos of one field, which the farmer was told wait for an expert (the oldest sent 3 h
    // ago), and a confident answer nobody asked about, which waits for nothing.
    const unsure = await createUser(t, 'farmer', { district: KUMI });
    await db.insert(analyses).values(
      [3, 2, 2, 0].map((hours, i) => ({
        userId: unsure.id,
        imagePath: 'analyses/none.jpg',
        outcome: 'diagnosis' as const,
        rustClass: 'healthy',
        confidence: i === 3 ? 0.95 : 0.45,
        unsure: i < 3,
        probabilities: { common_rust: 0.4, healthy: 0.45, other_disease: 0.15 },
        modelVersion: 'v-test',
        crop: 'beans' as const,
        createdAt: new Date(NOW.getTime() - hours * 3_600_000),
      })),
    );

    const w = (await week(officer)).json() as OfficerWeek;
    expect(w.alerts).toHaveLength(1);
    const { rows: notified } = await t.deps.database.execute(
      `select count(*)::int as n from notifications where key like $1`,
      [`outbreak:${alertId}|%`],
    );
    expect(w.alerts[0].told).toBe(notified[0].n);
    expect(w.alerts[0].told).toBeGreaterThan(0);
    expect(w.alerts[0].delivered + w.alerts[0].failed + w.alerts[0].waiting).toBe(Number(sent[0].n));
    expect(w.clinic).toEqual({ visits: 1, findings: { common_rust: 1 } });
    expect(w.follow_ups.worse).toBe(1);
    expect(w.review.waiting).toBe(4);
    expect(w.review.oldest_hours).toBe(3);
    const worse = w.farmers.find((f) => f.farmer_id === farmer.id)!;
    expect(worse).toMatchObject({ reasons: ['worse'], phone: farmer.phone, analysis_id: analysisId });
    expect(w.farmers.find((f) => f.farmer_id === caller.id)?.reasons).toEqual(['callback']);

    // The call is recorded; a farmer of another district or nobody is refused.
    const far = await createUser(t, 'farmer', { district: KAMPALA });
    const note = {
      farmer_id: farmer.id,
      analysis_id: analysisId,
      kind: 'called',
      note: 'Sprayed twice; will visit Friday',
    };
    expect(
      (await send('POST', extensionApi.actionsPath(KUMI), officer, { ...note, farmer_id: far.id })).statusCode,
    ).toBe(403);
    expect(
      (await send('POST', extensionApi.actionsPath(KAMPALA), officer, { ...note, farmer_id: far.id })).statusCode,
    ).toBe(403);
    expect(
      (await send('POST', extensionApi.actionsPath(KUMI), officer, { ...note, farmer_id: 99_999_999 })).statusCode,
    ).toBe(404);
    expect((await send('POST', extensionApi.actionsPath(KUMI), officer, { ...note, note: ' ' })).statusCode).toBe(400);
    const done = await send('POST', extensionApi.actionsPath(KUMI), officer, note);
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({ kind: 'called', officer: officer.username, district: KUMI });
    const callDone = await send('POST', extensionApi.actionsPath(KUMI), officer, {
      farmer_id: caller.id,
      kind: 'called',
      note: 'Called back',
    });
    expect(callDone.statusCode).toBe(201);
    const { rows: stillOpen } = await t.deps.database.execute(
      `select count(*)::int as n from callback_requests where user_id = $1 and done_at is null`,
      [caller.id],
    );
    expect(stillOpen[0].n).toBe(0);

    const asExpert = (await send('GET', reviewApi.reviewPath(analysisId), expert)).json() as ExpertReview;
    expect(asExpert.officer_notes?.[0]).toMatchObject({ kind: 'called', note: note.note, officer: officer.username });
    const asFarmer = (await send('GET', reviewApi.reviewPath(analysisId), farmer)).json() as ExpertReview;
    expect(asFarmer.officer_notes).toBeUndefined();
    const again = (await week(officer)).json() as OfficerWeek;
    expect(again.farmers.find((f) => f.farmer_id === farmer.id)?.actions[0].note).toBe(note.note);
  });

  it("counts the week's walked fields by crop (each once, its latest walk), their median share of plants with rust and those the advice tells to spray, under the small-count rule; a worse walk with no photo is a farmer to call, once", async () => {
    const db = t.deps.database.db;
    const hidden = { count: null, below_min: true };
    const shown = (count: number) => ({ count, below_min: false });
    /** Five stops of ten plants, `rust` of the 50 with rust; walked now unless `at`. */
    const walk = async (who: TestUser, fieldId: number, rust: number, at?: string) => {
      const stops = Array.from({ length: 5 }, (_, i) => ({
        looked: 10,
        rust: Math.max(0, Math.min(10, rust - i * 10)),
      }));
      const r = await send('POST', fieldsApi.walksPath(fieldId), who, { stops, ...(at && { walked_at: at }) });
      expect(r.statusCode, r.body).toBe(201);
      return r.json() as Walk;
    };
    const farmerWithField = async (district: string, crop: 'maize' | 'beans' = 'maize') => {
      const farmer = await createUser(t, 'farmer', { district });
      return { farmer, field: await insertField(db, farmer.id, crop, { district, plantedOn: '2026-10-07' }) };
    };
    const walksOf = async (crop: string) =>
      ((await week(officer)).json() as OfficerWeek).crops.find((c) => c.crop === crop)!.walks;

    // Two maize fields: the count hidden, and their median with it (it would show a farmer's own share).
    const a = await farmerWithField(KUMI);
    await walk(a.farmer, a.field.id, 5);
    const b = await farmerWithField(KUMI);
    await walk(b.farmer, b.field.id, 20);
    expect(await walksOf('maize')).toEqual({ fields: hidden, median_incidence: null, at_spray_share: hidden });

    // A field walked last week and twice this week counts once, with its latest walk; another district's,
    // a beans field and a field with no district are not Kumi's maize.
    const c = await farmerWithField(KUMI);
    await walk(c.farmer, c.field.id, 1, '2026-11-18T08:00:00.000Z');
    await walk(c.farmer, c.field.id, 2, '2026-11-23T08:00:00.000Z');
    const worse = await walk(c.farmer, c.field.id, 15);
    expect([worse.compared?.outcome, worse.sent_to_expert]).toEqual(['worse', false]);
    const d = await farmerWithField(KUMI);
    await walk(d.farmer, d.field.id, 25);
    const e = await farmerWithField(KUMI);
    await walk(e.farmer, e.field.id, 20);
    const far = await farmerWithField(BUKEDEA);
    await walk(far.farmer, far.field.id, 50);
    await walk(a.farmer, (await insertField(db, a.farmer.id, 'beans', { district: KUMI })).id, 3);
    await walk(b.farmer, (await insertField(db, b.farmer.id, 'maize')).id, 50);

    // 10 %, 40 %, 30 %, 50 % and 40 %: the median is 40 %. Four are over maize's 25 %, but 15 of 50 (30 %,
    // 18–44 %) says "do not spray yet": three fields the advice tells to spray.
    expect(await walksOf('maize')).toEqual({ fields: shown(5), median_incidence: 0.4, at_spray_share: shown(3) });
    expect(await walksOf('beans')).toEqual({ fields: hidden, median_incidence: null, at_spray_share: hidden });
    const w = (await week(officer)).json() as OfficerWeek;
    // The walk answered the field's reminder (a worse follow-up): the farmer is one row, for the walk.
    expect(w.farmers.filter((f) => f.farmer_id === c.farmer.id)).toEqual([
      expect.objectContaining({ reasons: ['walk'], phone: c.farmer.phone, at: worse.walked_at, analysis_id: null }),
    ]);
    expect(w.farmers.some((f) => [a, b, d, e, far].some((x) => x.farmer.id === f.farmer_id))).toBe(false);

    const csv = (await send('GET', extensionApi.reportCsvPath(KUMI), officer)).body;
    expect(csv).toContain(`${KUMI},Kumi,${w.week},fields_walked_maize,${w.week},5\n`);
    expect(csv).toContain(`,median_incidence_maize,${w.week},0.4\n`);
    expect(csv).toContain(`,fields_advised_spray_maize,${w.week},3\n`);
    expect(csv).toContain(`,fields_walked_beans,${w.week},<${SMALL_COUNT_MIN}\n`);
    expect(csv).toContain(`,median_incidence_beans,${w.week},\n`);
    expect(csv).toContain(`,farmer_walk,${c.farmer.username} ${c.farmer.phone},${w.week_start.slice(0, 8)}25\n`);
    const text = pdfText((await send('GET', extensionApi.reportPdfPath(KUMI), officer)).rawPayload);
    expect(text).toContain(
      "Maize fields walked by farmers: 5; median share of plants with rust 40 %; 3 whose latest walk's advice is to spray",
    );
    expect(text).toContain(`Beans fields: walked by 0 to ${SMALL_COUNT_MIN - 1} farmers`);
    expect(text).toContain(`${c.farmer.username}  ${c.farmer.phone}  walked a field: more rust`);
  });

  it('answers a week outside the dates it can draw with a clear 400, on the screen, the CSV and the PDF', async () => {
    const paths = [
      extensionApi.weekPath(KUMI),
      extensionApi.reportCsvPath(KUMI),
      extensionApi.reportPdfPath(KUMI),
      extensionApi.allReportCsv,
      extensionApi.allReportPdf,
    ];
    for (const week of ['9999-12-27', '9999-12-31', '0001-01-01']) {
      for (const path of paths) {
        const res = await send('GET', `${path}?week=${week}`, officer);
        expect(res.statusCode, `${path}?week=${week}: ${res.body}`).toBe(400);
        expect(errorOf(res).message).toMatch(/^week must be a day from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d/);
      }
    }
    // Weeks to come were once answered, empty, up to 2999: this week is the last one there is.
    const nextWeek = new Date(t.clock.now().getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
    for (const week of [nextWeek, '2999-12-31']) {
      for (const path of paths) {
        const res = await send('GET', `${path}?week=${week}`, officer);
        expect(res.statusCode, `${path}?week=${week}: ${res.body}`).toBe(400);
        expect(errorOf(res).fields?.week).toBe('That week has not come yet: choose this week or one before it');
      }
    }
    const thisWeek = t.clock.now().toISOString().slice(0, 10);
    expect((await send('GET', `${paths[0]}?week=${thisWeek}`, officer)).statusCode).toBe(200);
  });

  it('makes the CSV and a one-page PDF with the week screen numbers', async () => {
    const w = (await week(officer)).json() as OfficerWeek;
    const csv = await send('GET', extensionApi.reportCsvPath(KUMI), officer);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const maize = w.crops.find((c) => c.crop === 'maize')!;
    expect(csv.body).toContain(`${KUMI},Kumi,${w.week},confirmed_maize,${w.week},${maize.confirmed}\n`);
    expect(csv.body).toContain(`follow_ups_worse,${w.week},${w.follow_ups.worse}\n`);
    const pdf = await send('GET', extensionApi.reportPdfPath(KUMI), officer);
    expect(pdf.statusCode).toBe(200);
    const bytes = pdf.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain('Kumi');
    expect(text).toContain('Farmers to call or visit');
    expect(text).toContain(
      `Follow-ups: ${w.follow_ups.better} better, ${w.follow_ups.same} same, ${w.follow_ups.worse} worse`,
    );
    expect(bytes.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(1);
  });

  it('sends last week to every officer of the district on Monday morning: email, or SMS without one, once', async () => {
    const db = t.deps.database.db;
    const noEmail = await createUser(t, 'officer', { districts: [KUMI] });
    await db.update(users).set({ email: null }).where(eq(users.id, noEmail.id));
    const delivery = testDelivery(t);
    const officers = createApplicationsService(
      { db, clock: t.clock, delivery, config: t.deps.config },
      { endAllSessions: () => Promise.reject(new Error('the Monday report withdraws nobody')) },
    );
    const deps = { db, clock: t.clock, delivery, config: t.deps.config };
    const escalation = createEscalationService(db);
    const fields = createFieldsService(deps, fieldPhotoSql);
    const walks = createWalksService(
      deps,
      fields,
      createFollowUpService(deps, escalation, fields, followUpSources),
      escalation,
      fieldPhotoSql,
    );
    const extension = createExtensionService(deps, {
      outbreak,
      officers,
      walks,
      reviews: escalation,
      sources: extensionSources,
    });
    t.clock.set(new Date('2026-11-29T09:00:00Z')); // a Sunday
    expect(await extension.sendWeekly()).toBe(0);
    t.clock.set(new Date('2026-11-30T02:00:00Z')); // Monday before 06:00 in East Africa
    expect(await extension.sendWeekly()).toBe(0);
    t.clock.set(new Date('2026-11-30T04:00:00Z'));
    const told = await extension.sendWeekly();
    expect(await extension.sendWeekly()).toBe(told); // the same keys: nothing new is written
    const { rows } = await t.deps.database.execute(
      `select user_id, channel, body from deliveries where key like 'officer-weekly:UG-208:2026-11-23|%' order by user_id, channel`,
    );
    const kumiOfficers = [officer.id, pending.id, noEmail.id];
    expect(told).toBe(kumiOfficers.length);
    expect(rows.map((r) => `${r.user_id}:${r.channel}`).sort()).toEqual(
      [`${officer.id}:email`, `${pending.id}:email`, `${noEmail.id}:sms`].sort(),
    );
    const lastWeek = await extension.weekOf(KUMI, THIS_WEEK);
    const sms = rows.find((r) => r.channel === 'sms')!.body as { key: string; params: Record<string, unknown> };
    expect(sms.key).toBe('officer.weekly.sms');
    expect(sms.params).toMatchObject({
      week: '2026-W48',
      confirmed: lastWeek.crops.reduce((a, c) => a + c.confirmed, 0),
      worse: lastWeek.follow_ups.worse,
    });
    t.clock.set(NOW);
    // Each count with its noun in the form it needs (report.test.ts has a week of one of everything).
    const worse = lastWeek.follow_ups.worse;
    expect(worse).toBeGreaterThan(0);
    const email = rows.find((r) => r.user_id === officer.id)!.body as StoredMessage & { key: string };
    const text = renderStored('en', email as Parameters<typeof renderStored>[1]);
    expect(text).toContain(worse === 1 ? '1 farmer said worse' : `${worse} farmers said worse`);
    expect(text).not.toContain('1 farmers');
  });

  it('makes one PDF page per district of an officer of two, and refuses the all-districts report to others', async () => {
    const both = await createUser(t, 'officer', { districts: [KUMI, BUKEDEA] });
    const pdf = await send('GET', extensionApi.allReportPdf, both);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Kumi (UG-208)');
    expect(text).toContain('Bukedea (UG-219)');
    const csv = await send('GET', extensionApi.allReportCsv, both);
    expect(csv.body).toContain(`${KUMI},Kumi,`);
    expect(csv.body).toContain(`${BUKEDEA},Bukedea,`);
    expect((await send('GET', extensionApi.allReportPdf, expert)).statusCode).toBe(403);
    expect((await send('GET', extensionApi.allReportCsv, pending)).statusCode).toBe(200);
  });

  it("writes the PDF in the officer's language; the CSV keeps its codes", async () => {
    const swahili = await createUser(t, 'officer', { districts: [BUKEDEA], language: 'sw' });
    const w = (await week(swahili, BUKEDEA)).json() as OfficerWeek;
    const text = pdfText((await send('GET', extensionApi.reportPdfPath(BUKEDEA), swahili)).rawPayload);
    expect(text).toContain('Wakulima wa kupigia simu au kutembelea');
    expect(text).toContain(
      `Ufuatiliaji: bora ${w.follow_ups.better}, vilevile ${w.follow_ups.same}, mbaya zaidi ${w.follow_ups.worse}`,
    );
    expect(text).toContain('Mahindi: wakulima');
    expect(text).not.toContain('Farmers to call');
    expect(text).not.toContain('Follow-ups');
    const csv = await send('GET', extensionApi.reportCsvPath(BUKEDEA), swahili);
    expect(csv.body).toContain(`follow_ups_worse,${w.week},${w.follow_ups.worse}\n`);
  });

  // "2 farmers with rust confirmed by an expert; 3 more reported by the model" where the 3 held a confirmed one.
  it('counts a farmer once a week: confirmed, or else reported, in the district where the farmer was counted', async () => {
    const db = t.deps.database.db;
    const beans = async () => ((await week(officer)).json() as OfficerWeek).crops.find((c) => c.crop === 'beans')!;
    const before = await beans();
    const photo = async (userId: number, at: Date) => {
      const id = await insertRustPhoto(db, userId, 'analyses/none.jpg', at, 'beans');
      await outbreak.record(id);
      return id;
    };
    // The model reports the farmer's rust in Kumi; the farmer moves to Bukedea, where an expert confirms
    // the next photo of the same week: one farmer, confirmed, in the district first counted.
    const farmer = await createUser(t, 'farmer', { district: KUMI });
    await photo(farmer.id, new Date('2026-11-23T08:00:00Z'));
    await db.update(users).set({ district: BUKEDEA }).where(eq(users.id, farmer.id));
    const confirmed = await photo(farmer.id, new Date('2026-11-24T08:00:00Z'));
    await db
      .insert(expertReviews)
      .values({ analysisId: confirmed, reviewerId: expert.id, verdict: 'common_rust', reviewedAt: NOW });
    await outbreak.record(confirmed);
    const after = await beans();
    expect({ confirmed: after.confirmed - before.confirmed, reported: after.reported - before.reported }).toEqual({
      confirmed: 1,
      reported: 0,
    });
  });

  it("lists a farmer who said worse and asked for a call once, keeps the officer's districts out of the neighbours, and tells the experts who called", async () => {
    const db = t.deps.database.db;
    const both = await createUser(t, 'officer', { districts: [KUMI, BUKEDEA] });
    const w = (await week(both)).json() as OfficerWeek;
    expect(w.neighbours.map((n) => n.code)).not.toContain(BUKEDEA);
    expect(((await week(officer)).json() as OfficerWeek).neighbours.map((n) => n.code)).toContain(BUKEDEA);

    const { farmer, analysisId } = await confirmedCase(KUMI, new Date('2026-11-24T10:00:00Z'));
    await db.insert(followUps).values({
      userId: farmer.id,
      analysisId,
      fieldId: (await insertField(db, farmer.id)).id,
      crop: 'maize',
      dueAt: NOW,
      state: 'compared',
      outcome: 'worse',
      closedAt: new Date('2026-11-25T07:00:00Z'),
      createdAt: new Date('2026-11-18T08:00:00Z'),
    });
    await db.insert(callbackRequests).values({ userId: farmer.id, language: 'en', channel: 'sms', createdAt: NOW });
    const listed = ((await week(both)).json() as OfficerWeek).farmers.filter((f) => f.farmer_id === farmer.id);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ reasons: ['worse', 'callback'], analysis_id: analysisId, at: NOW.toISOString() });

    const note = 'Spoke with her son; the spray was too weak';
    const called = await send('POST', extensionApi.actionsPath(KUMI), both, {
      farmer_id: farmer.id,
      kind: 'called',
      note,
    });
    expect(called.statusCode, called.body).toBe(201);
    const done = (await send('GET', `${phoneApi.callbacks}?state=done&page_size=50`, expert)).json() as CallbackPage;
    const request = done.results.find((r) => r.farmer === farmer.username);
    expect(request).toMatchObject({ done_by: { name: both.username, role: 'officer' }, done_note: note });
  });
});
