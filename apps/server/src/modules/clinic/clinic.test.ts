import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClinicFieldChoicePage,
  type ClinicRecordPage,
  type ClinicVisit,
  clinicApi,
  type ExpertReview,
  IMPOSSIBLE_PHONE,
  phoneApi,
  type ReviewQueuePage,
  reviewApi,
} from '@kutu/contract';
import {
  clinicVisits,
  expertReviews,
  farmerProfiles,
  followUps,
  outbreakCounts,
  scoutingWalks,
  trainingSamples,
  users,
} from '../../db/schema/index.ts';
import { createFollowUpService, FOLLOW_UP_AFTER_DAYS } from '../followup/followup.service.ts';
import { createFieldsService } from '../fields/fields.service.ts';
import { createEscalationService } from '../review/escalation.service.ts';
import { createTestApp, joinSmsParts, type TestContext, testDelivery } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';
import { CLINIC_CSV_COLUMNS } from './clinic.service.ts';
import { fieldPhotoSql, followUpSources } from '../../ports.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const DISTRICT = 'UG-101';
const KEY = 'gateway-secret-for-the-clinic-tests';

/**
 * Plant clinic visits (docs/decisions/0053), with the committed model: the maize rust photo is a
 * confident rust diagnosis, the healthy one a confident healthy one.
 */
describe('plant clinic visits', () => {
  let t: TestContext;
  let doctor: TestUser;
  let other: TestUser;
  let known: TestUser;
  const db = () => t.deps.database.db;
  let phoneSeq = 0;
  const newPhone = () => `+2567${String(process.pid % 1000).padStart(3, '0')}9${String(++phoneSeq).padStart(4, '0')}`;

  beforeAll(async () => {
    t = await createTestApp({ env: { AT_CALLBACK_SECRET: KEY, PHONE_RATE_LIMIT_MAX: '10000' } });
    t.clock.set(new Date('2026-11-04T08:00:00Z'));
    doctor = await createUser(t, 'expert');
    other = await createUser(t, 'expert');
    known = await createUser(t, 'farmer');
  });
  afterAll(() => t.close());

  const newFarmer = { farmer_name: 'Amina Nakato', district: DISTRICT, language: 'sw', consent: 'true' };
  const visitFields = (phone: string, extra: Record<string, string> = {}) => ({
    phone_number: phone,
    crop: 'maize',
    variety: 'Longe 5',
    growth_stage: 'vegetative',
    share_affected: '30',
    symptoms: 'Brown powdery pustules on both sides of the leaves',
    ...extra,
  });
  const post = (
    user: TestUser,
    fields: Record<string, string>,
    photos = ['maize-common-rust.jpg'],
    headers: Record<string, string> = {},
  ) => {
    const form = multipart(
      photos.map((f) => ({ field: 'photos', filename: f, data: fixture(f) })),
      fields,
    );
    return t.app.inject({
      method: 'POST',
      url: clinicApi.visits,
      payload: form.payload,
      headers: { ...form.headers, ...user.headers, ...headers },
    });
  };
  const decide = (user: TestUser, id: number, body: object) =>
    t.app.inject({ method: 'POST', url: clinicApi.verdictPath(id), payload: body, headers: user.headers });
  const smsTo = (phone: string) =>
    joinSmsParts(t.deps.outbox.list().filter((m) => m.channel === 'sms' && m.to === phone));
  const confirmed = async () =>
    (
      await db()
        .select({ n: outbreakCounts.confirmed })
        .from(outbreakCounts)
        .where(and(eq(outbreakCounts.district, DISTRICT), eq(outbreakCounts.crop, 'maize')))
    ).reduce((sum, r) => sum + r.n, 0);

  it('refuses farmers and experts an administrator has not approved (403), before reading photos', async () => {
    const pending = await createUser(t, 'expert', { vetting: 'pending' });
    const phone = newPhone();
    const asPending = await post(pending, visitFields(phone, newFarmer));
    expect(asPending.statusCode).toBe(403);
    expect(asPending.json().error.code).toBe('EXPERT_PENDING');
    expect((await post(known, visitFields(phone, newFarmer))).statusCode).toBe(403);
    for (const user of [pending, known]) {
      const list = await t.app.inject({ method: 'GET', url: clinicApi.visits, headers: user.headers });
      expect(list.statusCode).toBe(403);
    }
    expect(await db().select().from(users).where(eq(users.phone, phone))).toEqual([]);
  });

  it("asks for a new farmer's details and consent, and refuses a number that is not a farmer's", async () => {
    const phone = newPhone();
    const bare = await post(doctor, visitFields(phone));
    expect(bare.statusCode).toBe(400);
    expect(Object.keys(bare.json().error.fields)).toEqual(['farmer_name', 'district', 'language']);
    const noConsent = await post(doctor, visitFields(phone, { ...newFarmer, consent: 'false' }));
    expect(noConsent.statusCode).toBe(400);
    expect(noConsent.json().error.fields.consent).toMatch(/agree/);
    const expertsNumber = await post(doctor, visitFields(other.phone));
    expect(expertsNumber.statusCode).toBe(409);
    expect(await db().select().from(users).where(eq(users.phone, phone))).toEqual([]);
  });

  it('refuses a number that cannot exist (+999…, a Ugandan number a digit short) with a clear message; it counts for nothing', async () => {
    const before = await confirmed();
    const visitsBefore = (await db().select().from(clinicVisits)).length;
    for (const phone of ['+999123456789', '+25677212345', '+2567721234567']) {
      const res = await post(doctor, visitFields(phone, newFarmer));
      expect(res.statusCode, phone).toBe(400);
      expect(res.json().error.fields.phone_number, phone).toBe(IMPOSSIBLE_PHONE);
      expect(await db().select().from(users).where(eq(users.phone, phone))).toEqual([]);
      expect(smsTo(phone)).toEqual([]);
    }
    expect((await db().select().from(clinicVisits)).length).toBe(visitsBefore);
    expect(await confirmed()).toBe(before);
  });

  it('makes a phone-only farmer with consent, diagnoses each photo, and a retry makes nothing new', async () => {
    const phone = newPhone();
    const key = { 'idempotency-key': 'clinic-visit-0000000001' };
    const res = await post(doctor, visitFields(phone, newFarmer), ['maize-common-rust.jpg', 'maize-healthy.jpg'], key);
    expect(res.statusCode, res.body).toBe(201);
    const visit = res.json<ClinicVisit>();
    expect(visit.farmer).toMatchObject({ phone, district: DISTRICT, language: 'sw', created_here: true });
    expect(visit.analyses.map((a) => a.rust_class)).toEqual(['common_rust', 'healthy']);
    expect(visit.verdict).toBeNull();
    const [account] = await db().select().from(users).where(eq(users.phone, phone));
    expect(account).toMatchObject({ role: 'farmer', email: null, passwordHash: null, language: 'sw' });
    // The name typed at the clinic, on the visit and in the records, not the username made from it.
    expect(account.username).not.toBe(newFarmer.farmer_name);
    expect(visit.farmer.name).toBe(newFarmer.farmer_name);
    const records = await t.app.inject({ method: 'GET', url: clinicApi.visits, headers: doctor.headers });
    const record = records.json<ClinicRecordPage>().results.find((r) => r.id === visit.id);
    expect(record?.farmer_name).toBe(newFarmer.farmer_name);
    const [profile] = await db().select().from(farmerProfiles).where(eq(farmerProfiles.userId, account.id));
    expect(profile.cropTypes).toEqual(['MAIZE']);
    const [row] = await db().select().from(clinicVisits).where(eq(clinicVisits.id, visit.id));
    expect(row.consentAt).not.toBeNull();
    // The photos are held for the doctor while they answer: the review queue's other experts cannot take them.
    const claims = await db()
      .select()
      .from(expertReviews)
      .where(
        inArray(
          expertReviews.analysisId,
          visit.analyses.map((a) => a.id),
        ),
      );
    expect(claims.map((c) => c.claimedBy)).toEqual([doctor.id, doctor.id]);

    const again = await post(
      doctor,
      visitFields(phone, newFarmer),
      ['maize-common-rust.jpg', 'maize-healthy.jpg'],
      key,
    );
    expect(again.statusCode).toBe(200);
    expect(again.json<ClinicVisit>().id).toBe(visit.id);
    expect(await db().select().from(clinicVisits).where(eq(clinicVisits.farmerId, account.id))).toHaveLength(1);
    // No code or message yet: the farmer hears from Kutu once the expert has answered.
    expect(smsTo(phone)).toEqual([]);
  });

  it("makes the expert's answer the verdict: training samples, a confirmed case, one result SMS, a USSD follow-up", async () => {
    const phone = newPhone();
    const created = await post(doctor, visitFields(phone, newFarmer), ['maize-common-rust.jpg', 'maize-healthy.jpg']);
    const visit = created.json<ClinicVisit>();
    // The result is what the farmer came for: it goes even after STOP and with SMS alerts off (0050, 0053).
    await db().update(users).set({ smsStoppedAt: new Date(), smsAlerts: false }).where(eq(users.phone, phone));
    const before = await confirmed();
    const body = { verdict: 'common_rust', severity: 'moderate', recommendation: 'Pick off the worst leaves' };
    const [first, retry] = await Promise.all([decide(doctor, visit.id, body), decide(doctor, visit.id, body)]);
    expect(first.statusCode, first.body).toBe(200);
    expect(retry.statusCode, retry.body).toBe(200);
    const again = await decide(doctor, visit.id, body);
    expect(again.statusCode).toBe(200);
    expect(again.json<ClinicVisit>()).toMatchObject({ verdict: 'common_rust', severity: 'moderate' });
    expect(again.json<ClinicVisit>().result_sms_at).not.toBeNull();

    const samples = await db()
      .select()
      .from(trainingSamples)
      .where(
        inArray(
          trainingSamples.sourceAnalysisId,
          visit.analyses.map((a) => a.id),
        ),
      );
    expect(samples.map((s) => s.label)).toEqual(['common_rust', 'common_rust']);
    // One farmer, one crop, one week: one confirmed case, whatever the number of photos.
    expect(await confirmed()).toBe(before + 1);

    const sms = smsTo(phone);
    expect(sms).toHaveLength(1);
    expect(sms[0].text).toContain('Kliniki ya mimea ya Kutu');
    expect(sms[0].text).toContain('Pick off the worst leaves');
    expect(sms[0].text).toContain('*384*123#');
    await db().update(users).set({ smsStoppedAt: null, smsAlerts: true }).where(eq(users.phone, phone));

    const reminders = await db()
      .select()
      .from(followUps)
      .where(
        inArray(
          followUps.analysisId,
          visit.analyses.map((a) => a.id),
        ),
      );
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ state: 'waiting', byUssd: true, analysisId: visit.analyses[0].id });
    // The visit, its photos and the reminder are of one field: the farmer's field of the visit's crop.
    const fieldId = visit.analyses[0].field?.id;
    expect(fieldId).toBeTypeOf('number');
    expect(visit.analyses.map((a) => a.field?.id)).toEqual(visit.analyses.map(() => fieldId));
    expect(reminders[0].fieldId).toBe(fieldId);
    const [stored] = await db().select().from(clinicVisits).where(eq(clinicVisits.id, visit.id));
    expect(stored.fieldId).toBe(fieldId);
    expect(again.json<ClinicVisit>().follow_up_at).toBe(reminders[0].dueAt.toISOString());

    const corrected = await decide(doctor, visit.id, { verdict: 'healthy' });
    expect(corrected.statusCode).toBe(409);

    // When due, the reminder goes by SMS in the farmer's language and says how to answer: the USSD menu.
    t.clock.set(new Date(t.clock.now().getTime() + (FOLLOW_UP_AFTER_DAYS + 1) * DAY_MS));
    const sweeper = createFollowUpService(
      {
        db: db(),
        clock: t.clock,
        delivery: testDelivery(t),
        config: t.deps.config,
      },
      createEscalationService(db()),
      createFieldsService({ db: db(), clock: t.clock }, fieldPhotoSql),
      followUpSources,
    );
    await sweeper.sendDue();
    const reminder = smsTo(phone).find((m) => m !== sms[0] && m.text.includes('*384*123#'));
    expect(reminder?.text).toMatch(/shamba lako la mahindi/);
    expect(reminder?.text).not.toContain('http');
  });

  it('a visit left before the verdict asks the farmer nothing and waits for the expert, who finishes it later', async () => {
    const phone = newPhone();
    const visit = (await post(doctor, visitFields(phone, newFarmer))).json<ClinicVisit>();
    expect(visit.analyses[0].rust_class).toBe('common_rust');
    // Nobody diagnosed it yet: no follow-up waits on Kutu's answer alone, so a week later no SMS (and
    // no web link, which a basic phone cannot open) asks about the field.
    const ids = visit.analyses.map((a) => a.id);
    expect(await db().select().from(followUps).where(inArray(followUps.analysisId, ids))).toEqual([]);
    t.clock.set(new Date(t.clock.now().getTime() + (FOLLOW_UP_AFTER_DAYS + 1) * DAY_MS));
    const sweepDeps = { db: db(), clock: t.clock, delivery: testDelivery(t), config: t.deps.config };
    const sweeper = createFollowUpService(
      sweepDeps,
      createEscalationService(db()),
      createFieldsService(sweepDeps, fieldPhotoSql),
      followUpSources,
    );
    await sweeper.sendDue();
    expect(smsTo(phone)).toEqual([]);

    // The expert opens it from their records and confirms it: the result SMS, then the USSD follow-up.
    const list = await t.app.inject({ method: 'GET', url: clinicApi.visits, headers: doctor.headers });
    expect(list.json<ClinicRecordPage>().results.find((r) => r.id === visit.id)?.verdict).toBeNull();
    const opened = await t.app.inject({ method: 'GET', url: clinicApi.visitPath(visit.id), headers: doctor.headers });
    expect(opened.json<ClinicVisit>()).toMatchObject({ id: visit.id, verdict: null });
    const done = await decide(doctor, visit.id, { verdict: 'common_rust', severity: 'low' });
    expect(done.statusCode, done.body).toBe(200);
    expect(smsTo(phone)).toHaveLength(1);
    const [reminder] = await db().select().from(followUps).where(inArray(followUps.analysisId, ids));
    expect(reminder).toMatchObject({ state: 'waiting', byUssd: true });
  });

  it('a clinic farmer who answers "worse" by USSD, once it is due, reaches the review queue and the call-backs', async () => {
    const phone = newPhone();
    const visit = (await post(doctor, visitFields(phone, newFarmer))).json<ClinicVisit>();
    const decided = await decide(doctor, visit.id, { verdict: 'common_rust', severity: 'moderate' });
    expect(decided.statusCode, decided.body).toBe(200);
    const first = visit.analyses[0].id;
    let session = 0;
    /** One USSD session typing `answers` in turn; the last screen. */
    const walk = async (answers: string[]) => {
      session += 1;
      let body = '';
      for (let i = 0; i <= answers.length; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: `${phoneApi.ussd}?key=${KEY}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({
            sessionId: `clinic-${phone}-${session}`,
            serviceCode: '*384*46#',
            phoneNumber: phone,
            networkCode: '63902',
            text: answers.slice(0, i).join('*'),
          }).toString(),
        });
        expect(res.statusCode, res.body).toBe(200);
        body = res.body;
      }
      return body;
    };
    const queued = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${reviewApi.queue}?page=1&page_size=50`,
        headers: other.headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json<ReviewQueuePage>().results.find((r) => r.analysis.id === first);
    };
    const callbacks = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${phoneApi.callbacks}?page=1&page_size=50`,
        headers: other.headers,
      });
      return res.json().results.filter((r: { phone: string }) => r.phone === phone);
    };

    // The day of the visit: the SMS said Kutu asks in 7 days, and so does the menu; no answer is taken.
    const early = await walk(['6']);
    expect(early).toMatch(/^CON Kutu itakuuliza kuhusu shamba lako tarehe \d\d\/\d\d\/\d{4}/);
    expect(await walk(['6', '3'])).not.toContain('Mtaalamu ataangalia');
    const [waiting] = await db().select().from(followUps).where(eq(followUps.analysisId, first));
    expect(waiting.state).toBe('waiting');
    expect(await queued()).toBeUndefined();

    t.clock.set(new Date(t.clock.now().getTime() + FOLLOW_UP_AFTER_DAYS * DAY_MS));
    expect(await walk(['6', '3'])).toContain('Mtaalamu ataangalia hali yako');
    const [closed] = await db().select().from(followUps).where(eq(followUps.analysisId, first));
    expect(closed).toMatchObject({ state: 'compared', outcome: 'worse', escalated: true });
    // Back in the queue for any expert, with Kutu's reason, and no longer decided.
    const item = await queued();
    expect(item?.reason).toMatch(/worse/i);
    expect(item?.claimed_by).toBeNull();
    const review = await t.app.inject({ method: 'GET', url: reviewApi.reviewPath(first), headers: other.headers });
    expect(review.json<ExpertReview>().reviewed_at).toBeNull();
    expect(await callbacks()).toMatchObject([{ language: 'sw', channel: 'ussd', done_at: null }]);
    // Another expert answers it: the sample follows the new verdict, and the case leaves the queue.
    const again = await t.app.inject({
      method: 'PUT',
      url: reviewApi.reviewPath(first),
      headers: other.headers,
      payload: { verdict: 'common_rust', severity: 'severe' },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(await queued()).toBeUndefined();
    const samples = await db().select().from(trainingSamples).where(eq(trainingSamples.sourceAnalysisId, first));
    expect(samples.map((x) => x.label)).toEqual(['common_rust']);
  });

  it("records the walk the expert counted in the farmer's new or chosen field; the result SMS gives the field's advice", async () => {
    const phone = newPhone();
    const key = { 'idempotency-key': 'clinic-walk-0000000000001' };
    // A new farmer and a new field, the plants counted instead of the share of the field guessed.
    const counted = visitFields(phone, {
      ...newFarmer,
      share_affected: '',
      field_name: 'Shamba la mto',
      planted_on: '2026-09-01',
      plants_looked: '50',
      plants_rust: '20',
    });
    const res = await post(doctor, counted, ['maize-common-rust.jpg'], key);
    expect(res.statusCode, res.body).toBe(201);
    const visit = res.json<ClinicVisit>();
    const fieldId = visit.field?.id;
    expect(visit).toMatchObject({ share_affected: null, field: { name: 'Shamba la mto' } });
    // At the stage the expert saw (leafy growth), 20 of 50 maize plants (28 % to 54 %): a spray can pay.
    expect(visit.walk).toMatchObject({
      field_id: fieldId,
      channel: 'clinic',
      recorded_by_expert: true,
      plants_looked: 50,
      plants_rust: 20,
      growth_stage: 'vegetative',
      stage_said: true,
      advice: { rule: 'maize.spray' },
      compared: null,
    });
    expect(visit.analyses[0].field?.id).toBe(fieldId);
    // A retried visit counts the walk once; it is the farmer's walk, counted by the expert.
    expect((await post(doctor, counted, ['maize-common-rust.jpg'], key)).json<ClinicVisit>().id).toBe(visit.id);
    const walks = await db()
      .select()
      .from(scoutingWalks)
      .where(eq(scoutingWalks.fieldId, fieldId ?? 0));
    expect(walks.map((w) => [w.userId, w.recordedBy, w.channel])).toEqual([[visit.farmer.id, doctor.id, 'clinic']]);
    // The walk's reminder is the field's and asks by phone (the USSD menu, WALK by SMS).
    const [reminder] = await db()
      .select()
      .from(followUps)
      .where(eq(followUps.fieldId, fieldId ?? 0));
    expect(reminder).toMatchObject({ walkId: walks[0].id, state: 'waiting', byUssd: true });

    const done = await decide(doctor, visit.id, { verdict: 'common_rust' });
    expect(done.json<ClinicVisit>().follow_up_at).toBe(reminder.dueAt.toISOString());
    const [sms] = smsTo(phone);
    expect(sms.text).toContain(
      'Matembezi ya shamba: kutu kwenye mimea 20 kati ya 50, mahindi katika hatua ya ukuaji wa majani. Dawa ya kutu inaweza kulipa sasa (uliza muuzaji). Matembezi ya kwanza ya shamba hili.',
    );
    expect(sms.text).toContain('piga *384*123#');

    // The next visit offers the farmer's fields; the same field, 2 of 50 plants, is better and asks no spray.
    const lookUp = (user: TestUser, number: string) =>
      t.app.inject({
        method: 'GET',
        url: `${clinicApi.farmerFields}?phone_number=${encodeURIComponent(number)}`,
        headers: user.headers,
      });
    const choices = (await lookUp(other, phone)).json<ClinicFieldChoicePage>();
    expect(choices.results).toEqual([
      { id: fieldId, number: 1, name: 'Shamba la mto', crop: 'maize', planted_on: '2026-09-01' },
    ]);
    t.clock.set(new Date(t.clock.now().getTime() + 7 * DAY_MS));
    const next = await post(
      other,
      visitFields(phone, { field_id: String(fieldId), plants_looked: '50', plants_rust: '2' }),
    );
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json<ClinicVisit>().walk).toMatchObject({
      advice: { rule: 'maize.watch' },
      compared: { outcome: 'better' },
    });
    // The expert's records CSV carries the field and the counts (newest first).
    const csv = (await t.app.inject({ method: 'GET', url: clinicApi.csv, headers: other.headers })).body;
    const [head, newest] = csv.split('\n').map((l) => l.split(','));
    const cell = (column: string) => newest[head.indexOf(column)];
    expect(['field', 'plants_looked', 'plants_with_rust'].map(cell)).toEqual(['Shamba la mto', '50', '2']);
    // A number without a farmer has no fields; a farmer may not look.
    expect((await lookUp(doctor, newPhone())).json<ClinicFieldChoicePage>().count).toBe(0);
    expect((await lookUp(doctor, other.phone)).json<ClinicFieldChoicePage>().count).toBe(0);
    expect((await lookUp(known, phone)).statusCode).toBe(403);
  });

  it('refuses a visit without the share or the counts, counts that do not add up, and a field that is not the farmer’s', async () => {
    const field = (await post(doctor, visitFields(known.phone))).json<ClinicVisit>().field;
    const stranger = await createUser(t, 'farmer');
    const wrong: [Record<string, string>, string][] = [
      [{ share_affected: '' }, 'share_affected'],
      [{ plants_looked: '50' }, 'plants_rust'],
      [{ plants_looked: '10', plants_rust: '11' }, 'plants_rust'],
      [{ plants_looked: '1001', plants_rust: '1' }, 'plants_looked'],
      [{ field_id: String(field?.id) }, 'field_id'],
      [{ field_id: String(field?.id), crop: 'beans' }, 'field_id'],
    ];
    for (const [extra, name] of wrong) {
      const phone = name === 'field_id' && extra.crop ? known.phone : stranger.phone;
      const res = await post(doctor, visitFields(phone, extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(Object.keys(res.json().error.fields), JSON.stringify(extra)).toContain(extra.crop ? 'crop' : name);
    }
  });

  it("lists only the expert's own visits, and a visit of another expert reads as missing", async () => {
    const mine = await post(doctor, visitFields(known.phone), ['maize-healthy.jpg']);
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json<ClinicVisit>().farmer.created_here).toBe(false);
    const theirs = await post(other, visitFields(known.phone), ['maize-healthy.jpg']);
    const theirId = theirs.json<ClinicVisit>().id;
    const page = await t.app.inject({
      method: 'GET',
      url: `${clinicApi.visits}?page=1&page_size=2`,
      headers: doctor.headers,
    });
    const body = page.json<ClinicRecordPage>();
    const ownCount = (await db().select().from(clinicVisits).where(eq(clinicVisits.expertId, doctor.id))).length;
    expect(body.count).toBe(ownCount);
    expect(body.results).toHaveLength(2);
    expect(body.next).toBe(2);
    expect(body.results.every((r) => r.expert === doctor.username)).toBe(true);
    expect(body.results[0]).toMatchObject({ id: mine.json<ClinicVisit>().id, farmer_phone: known.phone });
    for (const url of [clinicApi.visitPath(theirId)]) {
      expect((await t.app.inject({ method: 'GET', url, headers: doctor.headers })).statusCode).toBe(404);
    }
    expect((await decide(doctor, theirId, { verdict: 'healthy' })).statusCode).toBe(404);
  });

  it('downloads the records as CSV: PlantwisePlus fields, masked numbers, formulas neutralised', async () => {
    const csvDoctor = await createUser(t, 'expert');
    const created = await post(
      csvDoctor,
      visitFields(known.phone, { symptoms: '=HYPERLINK("http://x","y")', variety: '@SUM(A1)' }),
      ['maize-healthy.jpg'],
    );
    const visit = created.json<ClinicVisit>();
    await decide(csvDoctor, visit.id, { verdict: 'healthy', recommendation: '-keep checking, weekly' });
    const res = await t.app.inject({ method: 'GET', url: clinicApi.csv, headers: csvDoctor.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [header, line, ...rest] = res.body.trimEnd().split('\n');
    expect(header).toBe(CLINIC_CSV_COLUMNS.join(','));
    expect(rest).toEqual([]);
    const masked = `${known.phone.slice(0, 4)}${'*'.repeat(known.phone.length - 7)}${known.phone.slice(-3)}`;
    expect(line).toBe(
      [
        visit.created_at.slice(0, 10),
        `'${masked}`,
        '',
        'maize',
        'Maize field',
        "'@SUM(A1)",
        'vegetative',
        '30',
        '',
        '',
        `"'=HYPERLINK(""http://x"",""y"")"`,
        'healthy 95%',
        'healthy',
        `"'-keep checking, weekly"`,
        csvDoctor.username,
      ].join(','),
    );
    expect(res.body).not.toContain(known.phone);
    // A number starts with +, which a spreadsheet reads as a formula: it is neutralised like any cell.
  });
});
