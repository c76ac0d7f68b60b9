import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnalysisResult,
  analysisApi,
  dashboardApi,
  fieldsApi,
  reviewApi,
  type ReviewQueuePage,
  shortLinks,
} from '@kutu/contract';
import { analyses, expertReviews, followUps, notifications, users } from '../../db/schema/index.ts';
import { createTestApp, type TestContext, testDelivery, joinSmsParts } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';
import { createFollowUpService, FOLLOW_UP_AFTER_DAYS } from './followup.service.ts';
import { createEscalationService } from '../review/escalation.service.ts';
import { createFieldsService } from '../fields/fields.service.ts';
import { FOLLOW_UP_QUEUE } from './followup.jobs.ts';
import { fieldPhotoSql, followUpSources } from '../../ports.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Follow-up after advice to treat (docs/decisions/0044), with the committed model:
 * maize rust photo 0.95 rust (a confident diagnosis: advice to treat), maize healthy 0.95 healthy,
 * bean angular leaf spot an unsure "rust".
 */
describe('follow-up after advice to treat', () => {
  let t: TestContext;
  let expert: TestUser;
  const db = () => t.deps.database.db;
  /** A sweep as a worker process runs it (its own service over the same database). */
  const sweeper = () =>
    createFollowUpService(
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

  beforeAll(async () => {
    t = await createTestApp({ workJobs: true });
    t.clock.set(new Date('2026-11-02T08:00:00Z'));
    expert = await createUser(t, 'expert');
  });
  afterAll(() => t.close());

  const upload = (
    user: TestUser,
    file: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) => {
    const form = multipart([{ filename: 'leaf.jpg', data: fixture(file) }], fields);
    return t.app.inject({
      method: 'POST',
      url: analysisApi.detect,
      payload: form.payload,
      headers: { ...form.headers, ...user.headers, ...headers },
    });
  };
  const analyse = async (user: TestUser, file: string, fields: Record<string, string> = { crop: 'maize' }) => {
    const res = await upload(user, file, fields);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<AnalysisResult>();
  };
  const reminderOf = async (analysisId: number) =>
    (await db().select().from(followUps).where(eq(followUps.analysisId, analysisId)))[0];
  const remindersOf = (userId: number) => db().select().from(followUps).where(eq(followUps.userId, userId));
  const smsTo = (phone: string) => joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === phone));
  const reminderNotices = (userId: number) =>
    db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, 'follow_up_reminder')));
  /** Moves the clock past the reminder of a diagnosis made now. */
  const toDue = () => t.clock.advance(FOLLOW_UP_AFTER_DAYS * DAY_MS + 60_000);

  it('opens a reminder only when the advice is to treat, due 7 days later, once per retried upload', async () => {
    const farmer = await createUser(t, 'farmer');
    const healthy = await analyse(farmer, 'maize-healthy.jpg');
    expect(healthy.remind_at).toBeNull();
    const unsure = await analyse(farmer, 'bean-angular-leaf-spot.jpg', { crop: 'beans' });
    expect(unsure.unsure).toBe(true);
    expect(unsure.remind_at).toBeNull();
    expect(await remindersOf(farmer.id)).toEqual([]);

    const key = { 'idempotency-key': 'follow-up-retry-0001' };
    const first = await upload(farmer, 'maize-common-rust.jpg', { crop: 'maize' }, key);
    const again = await upload(farmer, 'maize-common-rust.jpg', { crop: 'maize' }, key);
    expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
    const rust = first.json<AnalysisResult>();
    expect(rust.rust_class).toBe('common_rust');
    expect(rust.unsure).toBe(false);
    const due = new Date(new Date(rust.created_at).getTime() + 7 * DAY_MS).toISOString();
    expect(rust.remind_at).toBe(due);
    expect(again.json<AnalysisResult>().remind_at).toBe(due);
    expect(await remindersOf(farmer.id)).toMatchObject([{ analysisId: rust.id, crop: 'maize', state: 'waiting' }]);
  });

  it('sends a due reminder once, in the app and by SMS in the farmer’s language, even with two sweeps at once', async () => {
    const farmer = await createUser(t, 'farmer', { language: 'sw' });
    const rust = await analyse(farmer, 'maize-common-rust.jpg');
    const history = async () =>
      (
        await t.app.inject({ method: 'GET', url: `${analysisApi.list}?page=1&page_size=10`, headers: farmer.headers })
      ).json<{ results: AnalysisResult[] }>().results[0].remind_at;
    // The history page (cached per user until their read version rises) promises the reminder.
    expect(await history()).not.toBeNull();
    const [a, b] = [sweeper(), sweeper()];
    // Not due yet: nothing goes out.
    await a.sendDue();
    expect(await reminderNotices(farmer.id)).toEqual([]);

    toDue();
    const sent = await Promise.all([a.sendDue(), b.sendDue()]);
    expect(sent.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(1);
    const notices = await reminderNotices(farmer.id);
    expect(notices).toHaveLength(1);
    // It names the farmer's field (made for the photo, named in their language) and links to its walk.
    expect(rust.field?.name).toBe('Shamba la mahindi');
    expect(notices[0].data).toEqual({ field_id: rust.field?.id, analysis_id: rust.id, follow_up_of: rust.id });
    expect(notices[0].message).toContain('Ni wakati wa kutembea Shamba la mahindi tena');
    const texts = smsTo(farmer.phone);
    expect(texts).toHaveLength(1);
    expect(texts[0].text).toContain('Kutu: wakati wa kutembea shamba "Shamba la mahindi" tena');
    expect(texts[0].text).toContain(shortLinks.walk(rust.field?.id ?? 0));
    expect((await reminderOf(rust.id)).state).toBe('sent');
    // Sent: the cached history page is read again, without the promise.
    expect(await history()).toBeNull();

    await Promise.all([a.sendDue(), b.sendDue()]);
    expect(await reminderNotices(farmer.id)).toHaveLength(1);
    expect(smsTo(farmer.phone)).toHaveLength(1);
  });

  it('sends no SMS to a farmer who turned SMS off, but still tells them in the app', async () => {
    const farmer = await createUser(t, 'farmer', { language: 'lg' });
    await db().update(users).set({ smsAlerts: false }).where(eq(users.id, farmer.id));
    await analyse(farmer, 'maize-common-rust.jpg');
    toDue();
    await sweeper().sendDue();
    const notices = await reminderNotices(farmer.id);
    expect(notices).toHaveLength(1);
    // Luganda drops the initial vowel after "mu": "mu nnimiro ya kasooli" (contract's luganda.ts).
    expect(notices[0].message).toContain('mu nnimiro ya kasooli');
    expect(smsTo(farmer.phone)).toEqual([]);
  });

  it('is sent by the worker’s queue', async () => {
    const farmer = await createUser(t, 'farmer');
    const rust = await analyse(farmer, 'maize-common-rust.jpg');
    toDue();
    await t.deps.jobs.send(FOLLOW_UP_QUEUE, {});
    // The reminder is claimed first, then told: wait for the SMS, the last thing the job does.
    const deadline = Date.now() + 15_000;
    while (smsTo(farmer.phone).length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await reminderOf(rust.id)).state).toBe('sent');
    expect(await reminderNotices(farmer.id)).toHaveLength(1);
    expect(smsTo(farmer.phone)[0]?.text).toContain('Kutu: time to walk your field "Maize field" again');
  });

  it('compares no photo the farmer did not say is a follow-up: the first diagnosis keeps its reminder', async () => {
    const farmer = await createUser(t, 'farmer');
    const rust = await analyse(farmer, 'maize-common-rust.jpg');
    // Seconds later, another maize photo (a test shot, or another plot): a new diagnosis, not a follow-up.
    t.clock.advance(28_000);
    const again = await analyse(farmer, 'maize-common-rust.jpg');
    const healthy = await analyse(farmer, 'maize-healthy.jpg');
    expect([again.follow_up, healthy.follow_up]).toEqual([null, null]);
    expect(await reminderOf(rust.id)).toMatchObject({ state: 'waiting', nextAnalysisId: null, outcome: null });
    // One reminder asks about the farmer's maize: the second treat diagnosis opens none of its own.
    expect(await reminderOf(again.id)).toBeUndefined();
    // Nothing went to the experts' queue as a follow-up.
    expect(await db().select().from(expertReviews).where(eq(expertReviews.analysisId, again.id))).toEqual([]);
    const res = await t.app.inject({ method: 'GET', url: analysisApi.detailPath(rust.id), headers: farmer.headers });
    expect(res.json<AnalysisResult>().remind_at).not.toBeNull();
    // The reminder still goes out when due.
    toDue();
    await sweeper().sendDue();
    expect(await reminderNotices(farmer.id)).toHaveLength(1);
  });

  it('is cancelled by a photo the farmer says follows it up before it is due, and the photo is compared', async () => {
    const farmer = await createUser(t, 'farmer');
    const rust = await analyse(farmer, 'maize-common-rust.jpg');
    // The farmer's choice lists the diagnoses a photo may follow up: this one, with its reminder's date.
    const open = await t.app.inject({ method: 'GET', url: analysisApi.openFollowUps, headers: farmer.headers });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json()).toEqual({
      results: [
        {
          analysis_id: rust.id,
          crop: 'maize',
          analysed_at: rust.created_at,
          remind_at: rust.remind_at,
          field_id: rust.field?.id,
          field_name: 'Maize field',
        },
      ],
    });

    t.clock.advance(3 * DAY_MS);
    const next = await analyse(farmer, 'maize-healthy.jpg', { crop: 'maize', follow_up_of: String(rust.id) });
    expect(next.follow_up).toEqual({
      of: rust.id,
      of_rust_class: 'common_rust',
      of_confidence: rust.confidence,
      of_severity: rust.severity?.share ?? null,
      outcome: 'better',
      sent_to_expert: false,
    });
    expect(await reminderOf(rust.id)).toMatchObject({ state: 'cancelled', nextAnalysisId: next.id });
    // The first result no longer promises a reminder, and it is no longer offered for a follow-up.
    const res = await t.app.inject({ method: 'GET', url: analysisApi.detailPath(rust.id), headers: farmer.headers });
    expect(res.json<AnalysisResult>().remind_at).toBeNull();
    const after = await t.app.inject({ method: 'GET', url: analysisApi.openFollowUps, headers: farmer.headers });
    expect(after.json()).toEqual({ results: [] });

    toDue();
    await sweeper().sendDue();
    expect(await reminderNotices(farmer.id)).toEqual([]);
  });

  it('refuses a follow-up photo of another crop or another field than the diagnosis, before any work', async () => {
    const farmer = await createUser(t, 'farmer', { district: 'UG-208' });
    const rust = await analyse(farmer, 'maize-common-rust.jpg');
    const follow_up_of = String(rust.id);
    const beans = await upload(farmer, 'maize-healthy.jpg', { crop: 'beans', follow_up_of });
    expect(beans.statusCode, beans.body).toBe(400);
    expect(beans.json().error.fields.follow_up_of).toBe(
      'This photo is of another crop than the diagnosis it follows up. Choose the same crop, or send it as a new diagnosis.',
    );
    // A second maize field of the farmer is another field: the same crop is not the same field.
    const made = await t.app.inject({
      method: 'POST',
      url: fieldsApi.list,
      headers: farmer.headers,
      payload: { name: 'Lower plot', crop: 'maize' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const elsewhere = await upload(farmer, 'maize-healthy.jpg', { field_id: String(made.json().id), follow_up_of });
    expect(elsewhere.statusCode, elsewhere.body).toBe(400);
    expect(elsewhere.json().error.fields.follow_up_of).toBe(
      'This photo is of another field than the diagnosis it follows up. Choose the same field, or send it as a new diagnosis.',
    );
    expect(await db().select().from(analyses).where(eq(analyses.userId, farmer.id))).toHaveLength(1);
    expect((await reminderOf(rust.id)).state).toBe('waiting');
    // Without a crop or a field, a follow-up photo is of the diagnosis's field and crop.
    const same = await analyse(farmer, 'maize-healthy.jpg', { follow_up_of });
    expect([same.field, same.crop, same.follow_up?.outcome]).toEqual([rust.field, 'maize', 'better']);
    // Only farmers have diagnoses to follow up.
    const asExpert = await t.app.inject({ method: 'GET', url: analysisApi.openFollowUps, headers: expert.headers });
    expect(asExpert.statusCode).toBe(403);
  });

  it('sends a follow-up that looks worse straight to the expert queue, with the reason, and tells the farmer', async () => {
    const farmer = await createUser(t, 'farmer');
    const rust = await analyse(farmer, 'maize-common-rust.jpg');
    toDue();
    await sweeper().sendDue();
    const next = await analyse(farmer, 'maize-common-rust.jpg', { crop: 'maize', follow_up_of: String(rust.id) });
    expect(next.follow_up).toMatchObject({ of: rust.id, outcome: 'worse', sent_to_expert: true });
    expect(await reminderOf(rust.id)).toMatchObject({ state: 'compared', escalated: true, nextAnalysisId: next.id });
    // Still rust: the loop goes on with a reminder for the new diagnosis.
    expect(next.remind_at).not.toBeNull();

    const queue = await t.app.inject({
      method: 'GET',
      url: `${reviewApi.queue}?page=1&page_size=50`,
      headers: expert.headers,
    });
    expect(queue.statusCode, queue.body).toBe(200);
    const items = queue.json<ReviewQueuePage>().results;
    // Before every photo nobody asked about.
    const at = items.findIndex((i) => i.analysis.id === next.id);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(items.slice(0, at).every((i) => i.asked_at !== null)).toBe(true);
    // The reason gives the two rust shares of the class, as the comparison used them (never the leaf's share).
    const pct = (r: AnalysisResult) => `${((r.probabilities.common_rust ?? 0) * 100).toFixed(0)}%`;
    expect(items[at].reason).toBe(
      `Follow-up after advice to treat rust: photo #${rust.id} showed rust (${pct(rust)}), this photo shows rust (${pct(next)}). The field may be getting worse.`,
    );
    expect(items[at].question).toBeNull();
    const first = items.find((i) => i.analysis.id === rust.id);
    expect(first?.reason ?? null).toBeNull();
    // Kutu asked, not the farmer: their dashboard counts no question of theirs.
    const dashboard = await t.app.inject({ method: 'GET', url: dashboardApi.summary, headers: farmer.headers });
    expect(dashboard.json().farmer.questions_asked).toBe(0);
  });

  const addPhoto = async (user: TestUser, id: number, file: string) => {
    const form = multipart([{ filename: 'leaf.jpg', data: fixture(file) }]);
    const res = await t.app.inject({
      method: 'POST',
      url: analysisApi.photosPath(id),
      payload: form.payload,
      headers: { ...form.headers, ...user.headers },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AnalysisResult>();
  };
  /** The stored answer of a photo set as the model could have read it (the fixtures cannot make every case). */
  const readAs = (analysisId: number, answer: Partial<typeof analyses.$inferInsert>) =>
    db().update(analyses).set(answer).where(eq(analyses.id, analysisId));
  const reviewOf = async (analysisId: number) =>
    db().select().from(expertReviews).where(eq(expertReviews.analysisId, analysisId));
  const queued = async (analysisId: number) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${reviewApi.queue}?page=1&page_size=50`,
      headers: expert.headers,
    });
    return res.json<ReviewQueuePage>().results.filter((i) => i.analysis.id === analysisId);
  };

  it('compares a follow-up again when more photos change its answer: unsure, then worse, goes to the experts once', async () => {
    const farmer = await createUser(t, 'farmer');
    // A bean leaf whose share is measured (at least 1 %, decision 0120), so the field shows one.
    const rust = await analyse(farmer, 'bean-rust-measured.jpg', { crop: 'beans' });
    expect([rust.rust_class, rust.unsure]).toEqual(['common_rust', false]);
    toDue();
    await sweeper().sendDue();
    // The follow-up photo alone is an unsure "rust" (0.66): Kutu cannot compare it, and asks for more leaves.
    const next = await analyse(farmer, 'bean-angular-leaf-spot.jpg', { crop: 'beans', follow_up_of: String(rust.id) });
    expect(next.unsure).toBe(true);
    expect(next.follow_up).toMatchObject({ of: rust.id, outcome: 'unclear', sent_to_expert: false });
    expect(next.second_photo.reason).toBe('unsure');
    expect(await reviewOf(next.id)).toEqual([]);
    // As if this leaf had read rust 0.88 with as much rust-coloured leaf as the first photo: one more
    // rusty leaf makes the field answer confident rust, as strong as before.
    const [first] = await db().select().from(analyses).where(eq(analyses.id, rust.id));
    await readAs(next.id, {
      rustClass: 'common_rust',
      probabilities: { common_rust: 0.88, healthy: 0.02, other_disease: 0.1 },
      confidence: 0.88,
      rustShare: first.rustShare,
    });

    t.clock.advance(60_000);
    const field = await addPhoto(farmer, next.id, 'bean-rust-measured.jpg');
    expect([field.rust_class, field.unsure]).toEqual(['common_rust', false]);
    // The field's severity is the mean of its photos' shares: both as the first photo's here.
    expect(field.severity?.share).toBeCloseTo(first.rustShare ?? Number.NaN, 6);
    expect(field.follow_up).toMatchObject({ of: rust.id, outcome: 'worse', sent_to_expert: true });
    expect(await reminderOf(rust.id)).toMatchObject({ state: 'compared', nextAnalysisId: next.id, outcome: 'worse' });
    const [review] = await reviewOf(next.id);
    expect(review.askedAt?.toISOString()).toBe(t.clock.now().toISOString());
    expect(review.question).toBeNull();
    const items = await queued(next.id);
    expect(items).toHaveLength(1);
    expect(items[0].reason).toMatch(
      new RegExp(`^Follow-up after advice to treat rust: photo #${rust.id} showed rust \\(\\d+%\\)`),
    );
    const detail = await t.app.inject({ method: 'GET', url: analysisApi.detailPath(next.id), headers: farmer.headers });
    expect(detail.json<AnalysisResult>().follow_up).toMatchObject({ outcome: 'worse', sent_to_expert: true });

    // The same answer compared again (a retried request): still one entry, and it keeps its place in the queue.
    const queuedAt = review.askedAt;
    t.clock.advance(60_000);
    const [row] = await db().select().from(analyses).where(eq(analyses.id, next.id));
    await sweeper().answerChanged({ ...row, rustClass: 'common_rust' });
    expect(await reviewOf(next.id)).toMatchObject([{ askedAt: queuedAt }]);
    expect(await queued(next.id)).toHaveLength(1);
  });

  // Rust on 1 of 2 leaves stores the mean of both leaves' shares but shows none: the follow-up once quoted
  // that mean as "about N % of the leaf on your first photo", half what the rust leaf read.
  it('quotes the first diagnosis as its result showed it: no share for a field with rust on some leaves', async () => {
    const farmer = await createUser(t, 'farmer');
    const rust = await analyse(farmer, 'maize-common-rust.jpg');
    const field = await addPhoto(farmer, rust.id, 'maize-healthy.jpg');
    expect([field.rust_class, field.unsure, field.rust_leaves, field.severity]).toEqual(['common_rust', true, 1, null]);
    const next = await analyse(farmer, 'maize-common-rust.jpg', { crop: 'maize', follow_up_of: String(rust.id) });
    expect(next.follow_up).toMatchObject({ of: rust.id, of_severity: null, of_confidence: field.confidence });
    // Compared as the farmer reads it: how sure Kutu was of rust (the rust leaf's own confidence), against
    // the same leaf photographed again: as strong.
    expect(next.follow_up?.outcome).toBe('worse');
  });

  it('keeps a follow-up it sent to the experts queued when more photos make it look better, and says so', async () => {
    const farmer = await createUser(t, 'farmer');
    const rust = await analyse(farmer, 'maize-common-rust.jpg');
    toDue();
    await sweeper().sendDue();
    const next = await analyse(farmer, 'maize-common-rust.jpg', { crop: 'maize', follow_up_of: String(rust.id) });
    expect(next.follow_up).toMatchObject({ outcome: 'worse', sent_to_expert: true });
    const [queuedBefore] = await reviewOf(next.id);
    // As if the model had read this leaf as an unsure "healthy" (0.88), so Kutu asks for another leaf.
    await readAs(next.id, {
      rustClass: 'healthy',
      probabilities: { common_rust: 0.1, healthy: 0.88, other_disease: 0.02 },
      confidence: 0.88,
      unsure: true,
    });

    const field = await addPhoto(farmer, next.id, 'maize-healthy.jpg');
    expect([field.rust_class, field.unsure]).toEqual(['healthy', false]);
    // The comparison follows the field answer; the expert, already asked, still answers (decision 0044).
    expect(field.follow_up).toMatchObject({ of: rust.id, outcome: 'better', sent_to_expert: true });
    expect(await reminderOf(rust.id)).toMatchObject({ outcome: 'better', escalated: true });
    expect(await reviewOf(next.id)).toMatchObject([{ askedAt: queuedBefore.askedAt, reason: queuedBefore.reason }]);
    expect(await queued(next.id)).toHaveLength(1);
  });

  it('opens the reminder when more photos make an answer one to treat, and drops it when they make it unsure', async () => {
    const farmer = await createUser(t, 'farmer');
    const unsure = await analyse(farmer, 'bean-angular-leaf-spot.jpg', { crop: 'beans' });
    expect(await reminderOf(unsure.id)).toBeUndefined();
    const [row] = await db().select().from(analyses).where(eq(analyses.id, unsure.id));
    const facts = { ...row, rustClass: 'common_rust' as const };
    // The field answer of several leaves (decision 0040) turned confident rust.
    const service = sweeper();
    await service.answerChanged({ ...facts, unsure: false, confidence: 0.93 });
    expect(await reminderOf(unsure.id)).toMatchObject({ state: 'waiting', crop: 'beans' });
    await service.answerChanged({ ...facts, unsure: true, confidence: 0.7 });
    expect((await reminderOf(unsure.id)).state).toBe('cancelled');
  });

  it('refuses a follow-up of another farmer’s diagnosis as if it did not exist, and keeps nothing', async () => {
    const owner = await createUser(t, 'farmer');
    const other = await createUser(t, 'farmer');
    const rust = await analyse(owner, 'maize-common-rust.jpg');
    const res = await upload(other, 'maize-healthy.jpg', { crop: 'maize', follow_up_of: String(rust.id) });
    expect(res.statusCode).toBe(404);
    expect(await db().select().from(analyses).where(eq(analyses.userId, other.id))).toEqual([]);
    expect((await reminderOf(rust.id)).state).toBe('waiting');
    for (const value of ['abc', '2147483648']) {
      const bad = await upload(other, 'maize-healthy.jpg', { crop: 'maize', follow_up_of: value });
      expect(bad.statusCode, value).toBe(400);
      expect(bad.json().error.fields).toHaveProperty('follow_up_of');
    }
  });
});
