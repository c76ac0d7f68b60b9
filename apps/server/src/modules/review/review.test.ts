import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  ExpertReview,
  FieldAccuracyReply,
  MyReviewPage,
  ReviewQueuePage,
  ReviewSummary,
  SampleCounts,
  TrainingSample,
} from '@kutu/contract';
import { analyses, expertReviews, notifications, trainingSamples } from '../../db/schema/index.ts';
import { createTestApp, type TestContext, joinSmsParts } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';
import { weekStart } from './review-figures.ts';
import {
  reviewApi,
  trainingApi,
  notificationsApi,
  analysisApi,
  communityApi,
  communityPath,
  shortLinks,
} from '@kutu/contract';

const QUEUE = reviewApi.queue;
const MINE = reviewApi.mine;
const SUMMARY = reviewApi.summary;
const FIELD = reviewApi.fieldAccuracy;
const review = (id: number) => reviewApi.reviewPath(id);
const claim = (id: number) => reviewApi.claimPath(id);
const ask = (id: number) => reviewApi.askPath(id);
const toPost = (id: number) => reviewApi.communityPostPath(id);

interface Seed {
  rustClass?: 'common_rust' | 'healthy' | 'other_disease' | null;
  /** Probabilities of common_rust, healthy, other_disease. */
  probs?: [number, number, number];
  unsure?: boolean;
  crop?: 'maize' | 'beans' | 'other' | null;
  modelVersion?: string;
  createdAt?: Date;
}

describe('expert review', () => {
  let t: TestContext;
  let farmer: TestUser;
  let otherFarmer: TestUser;
  let expert: TestUser;
  let otherExpert: TestUser;
  let photoKey: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { RETRAIN_AFTER_SAMPLES: '0' } });
    farmer = await createUser(t, 'farmer');
    otherFarmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    otherExpert = await createUser(t, 'expert');
    photoKey = await t.deps.storage.put('analyses/test', fixture('maize-common-rust.jpg'), 'jpg');
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    // Each test starts from an empty queue (users and the stored photo stay).
    await t.deps.database.db.delete(trainingSamples);
    await t.deps.database.db.delete(analyses);
  });

  let seconds = 0;
  async function seed(s: Seed = {}, owner = farmer): Promise<number> {
    const probs = s.probs ?? [0.9, 0.06, 0.04];
    const rustClass = s.rustClass === undefined ? 'common_rust' : s.rustClass;
    seconds += 1;
    const [row] = await t.deps.database.db
      .insert(analyses)
      .values({
        userId: owner.id,
        imagePath: photoKey,
        outcome: rustClass ? 'diagnosis' : 'not_leaf',
        rustClass,
        confidence: Math.max(...probs),
        unsure: s.unsure ?? false,
        probabilities: { common_rust: probs[0], healthy: probs[1], other_disease: probs[2] },
        modelVersion: s.modelVersion ?? 'v-test',
        crop: s.crop ?? null,
        createdAt: s.createdAt ?? new Date(Date.UTC(2026, 5, 1, 8, 0, seconds)),
      })
      .returning({ id: analyses.id });
    return row.id;
  }

  const get = (url: string, who: TestUser | null, query?: Record<string, string>) =>
    t.app.inject({ method: 'GET', url, query, headers: who?.headers ?? {} });
  const decide = (id: number, who: TestUser, verdict: string, note?: string) =>
    t.app.inject({ method: 'PUT', url: review(id), headers: who.headers, payload: { verdict, note } });
  const queueIds = async (query: Record<string, string> = {}) => {
    const res = await get(QUEUE, expert, query);
    expect(res.statusCode).toBe(200);
    return (res.json() as ReviewQueuePage).results.map((r) => r.analysis.id);
  };
  const liveSamples = () =>
    t.deps.database.db.select().from(trainingSamples).where(eq(trainingSamples.uploaderId, expert.id));

  describe('permissions', () => {
    it('keeps the queue, decisions, claims and field figures to experts', async () => {
      const id = await seed();
      expect((await get(QUEUE, null)).statusCode).toBe(401);
      for (const [method, url] of [
        ['GET', QUEUE],
        ['GET', FIELD],
        ['PUT', review(id)],
        ['POST', claim(id)],
        ['DELETE', claim(id)],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: farmer.headers, payload: { verdict: 'healthy' } });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
      const asExpert = await t.app.inject({
        method: 'POST',
        url: ask(id),
        headers: expert.headers,
        payload: { question: 'Is it rust?' },
      });
      expect(asExpert.statusCode).toBe(403);
    });

    it("lets a farmer see only their own verdicts; another farmer's analysis reads as missing", async () => {
      const id = await seed();
      expect((await decide(id, expert, 'healthy', 'Looks healthy to me')).statusCode).toBe(200);
      const own = await get(review(id), farmer);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject({ verdict: 'healthy', note: 'Looks healthy to me', sample_id: null });
      const other = await get(review(id), otherFarmer);
      expect(other.statusCode).toBe(404);
      const otherAsk = await t.app.inject({
        method: 'POST',
        url: ask(id),
        headers: otherFarmer.headers,
        payload: { question: 'Is it rust?' },
      });
      expect(otherAsk.statusCode).toBe(404);
      expect(((await get(MINE, otherFarmer)).json() as MyReviewPage).count).toBe(0);
      expect(((await get(MINE, farmer)).json() as MyReviewPage).results[0].review.verdict).toBe('healthy');
    });
  });

  describe('queue order, filters and pages', () => {
    it('lists asked-about items first, then unsure, then the smallest margin, then newest', async () => {
      const oldConfident = await seed({ probs: [0.95, 0.03, 0.02] });
      const newConfident = await seed({ probs: [0.95, 0.03, 0.02] });
      const closeCall = await seed({ probs: [0.55, 0.45, 0] });
      const unsure = await seed({ probs: [0.5, 0.2, 0.3], unsure: true });
      const asked = await seed({ probs: [0.99, 0.01, 0] });
      const res = await t.app.inject({
        method: 'POST',
        url: ask(asked),
        headers: farmer.headers,
        payload: { question: '  Are these orange spots rust?  ' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ question: 'Are these orange spots rust?', status: 'waiting' });

      expect(await queueIds()).toEqual([asked, unsure, closeCall, newConfident, oldConfident]);
      const page = (await get(QUEUE, expert)).json() as ReviewQueuePage;
      expect(page.count).toBe(5);
      expect(page.results[0]).toMatchObject({ question: 'Are these orange spots rust?', farmer: { id: farmer.id } });
      expect(page.results[2].margin).toBeCloseTo(0.1, 5);

      // Pages never overlap and together give the same order.
      const pages = [];
      for (const p of ['1', '2', '3']) pages.push(...(await queueIds({ page: p, page_size: '2' })));
      expect(pages).toEqual([asked, unsure, closeCall, newConfident, oldConfident]);
      const second = (await get(QUEUE, expert, { page: '2', page_size: '2' })).json() as ReviewQueuePage;
      expect(second).toMatchObject({ count: 5, next: 3, previous: 1 });

      // A decided item leaves the queue.
      await decide(unsure, expert, 'common_rust');
      expect(await queueIds()).toEqual([asked, closeCall, newConfident, oldConfident]);
    });

    it('filters by crop, outcome, model version and date range', async () => {
      const maize = await seed({ crop: 'maize', createdAt: new Date('2026-06-01T10:00:00Z') });
      const beans = await seed({
        crop: 'beans',
        rustClass: 'healthy',
        probs: [0.05, 0.9, 0.05],
        createdAt: new Date('2026-06-03T10:00:00Z'),
      });
      const unsure = await seed({
        unsure: true,
        probs: [0.4, 0.35, 0.25],
        modelVersion: 'v-next',
        createdAt: new Date('2026-06-07T10:00:00Z'),
      });
      const notLeaf = await seed({
        rustClass: null,
        probs: [0.4, 0.3, 0.3],
        createdAt: new Date('2026-06-05T23:59:00Z'),
      });

      expect(await queueIds({ crop: 'maize' })).toEqual([maize]);
      expect(await queueIds({ crop: 'beans' })).toEqual([beans]);
      expect(await queueIds({ outcome: 'healthy' })).toEqual([beans]);
      expect(await queueIds({ outcome: 'common_rust' })).toEqual([maize]);
      expect(await queueIds({ outcome: 'unsure' })).toEqual([unsure]);
      expect(await queueIds({ outcome: 'not_leaf' })).toEqual([notLeaf]);
      expect(await queueIds({ model_version: 'v-next' })).toEqual([unsure]);
      expect((await queueIds({ from: '2026-06-02', to: '2026-06-05' })).sort()).toEqual([beans, notLeaf].sort());
      expect(await queueIds({ to: '2026-06-01' })).toEqual([maize]);

      const bad = await get(QUEUE, expert, { crop: 'wheat', from: 'yesterday' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('claims and races', () => {
    it('gives a claim to one of two experts racing; the other gets 409 until it runs out', async () => {
      const id = await seed();
      const [a, b] = await Promise.all([
        t.app.inject({ method: 'POST', url: claim(id), headers: expert.headers }),
        t.app.inject({ method: 'POST', url: claim(id), headers: otherExpert.headers }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const [winner, loser] = a.statusCode === 200 ? [expert, otherExpert] : [otherExpert, expert];
      const lost = a.statusCode === 409 ? a : b;
      expect(lost.json().error.message).toContain(winner.username);

      const queue = (await get(QUEUE, loser)).json() as ReviewQueuePage;
      expect(queue.results[0].claimed_by?.id).toBe(winner.id);
      // The loser cannot decide while the claim holds.
      expect((await decide(id, loser, 'healthy')).statusCode).toBe(409);

      t.clock.advance(11 * 60_000);
      const retry = await t.app.inject({ method: 'POST', url: claim(id), headers: loser.headers });
      expect(retry.statusCode).toBe(200);
      expect((await decide(id, loser, 'healthy')).statusCode).toBe(200);
      // Decided: no claim any more, for anyone.
      const late = await t.app.inject({ method: 'POST', url: claim(id), headers: winner.headers });
      expect(late.statusCode).toBe(409);
      expect(late.json().error.message).toContain('already reviewed');
    });

    it('lets only the first of two simultaneous answers win, and makes one sample', async () => {
      const id = await seed();
      const [a, b] = await Promise.all([decide(id, expert, 'healthy'), decide(id, otherExpert, 'other_disease')]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const winner = a.statusCode === 200 ? a : b;
      const rows = await t.deps.database.db
        .select()
        .from(trainingSamples)
        .where(eq(trainingSamples.sourceAnalysisId, id));
      expect(rows).toHaveLength(1);
      expect(rows[0].label).toBe((winner.json() as ExpertReview).verdict);
    });

    it('releases a claim for the other experts', async () => {
      const id = await seed();
      expect((await t.app.inject({ method: 'POST', url: claim(id), headers: expert.headers })).statusCode).toBe(200);
      const release = await t.app.inject({ method: 'DELETE', url: claim(id), headers: expert.headers });
      expect(release.statusCode).toBe(204);
      expect((await t.app.inject({ method: 'POST', url: claim(id), headers: otherExpert.headers })).statusCode).toBe(
        200,
      );
    });
  });

  describe('decisions, samples and notifications', () => {
    it('turns a correction into a training sample with provenance and tells the farmer', async () => {
      const id = await seed({ crop: 'beans', modelVersion: 'v-prov' });
      const res = await decide(id, expert, 'healthy', 'No pustules: the spots are dust.');
      expect(res.statusCode).toBe(200);
      const body = res.json() as ExpertReview;
      expect(body).toMatchObject({
        status: 'reviewed',
        verdict: 'healthy',
        note: 'No pustules: the spots are dust.',
        reviewer: { id: expert.id, username: expert.username },
        agrees: false,
      });
      expect(body.sample_id).toBeTypeOf('number');

      const sample = await t.app.inject({ method: 'GET', url: trainingApi.samples, headers: expert.headers });
      const found = (sample.json().results as TrainingSample[]).find((s) => s.id === body.sample_id);
      expect(found).toMatchObject({
        label: 'healthy',
        source_analysis_id: id,
        source_model_version: 'v-prov',
        crop_type: 'BEANS',
        uploader: { id: expert.id },
      });
      expect(found?.created_at).toBe(t.clock.now().toISOString());

      const notices = await t.deps.database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, farmer.id), eq(notifications.type, 'expert_review')));
      const notice = notices.find((n) => n.data.analysis_id === id)!;
      expect(notice.message).toBe(
        'An expert reviewed your photo: Healthy. The expert’s note: “No pustules: the spots are dust.”',
      );
      expect(notice.data).toMatchObject({ analysis_id: id, verdict: 'healthy', revised: false });
      const list = await get(notificationsApi.list, farmer);
      expect(list.json().results.map((n: { type: string }) => n.type)).toContain('expert_review');
    });

    it('tells the farmer of a verdict in their language: in the app (opening the analysis, note included), by SMS and by email, and history marks the photo', async () => {
      const swahili = await createUser(t, 'farmer', { language: 'sw' });
      const id = await seed({ crop: 'beans' }, swahili);
      expect((await decide(id, expert, 'common_rust', 'Nyunyiza dawa ya kuvu wiki hii.')).statusCode).toBe(200);

      // In the app: bean rust (not "common rust"), the note, and the analysis to open.
      const [notice] = (await get(notificationsApi.list, swahili)).json().results;
      expect(notice).toMatchObject({ type: 'expert_review', data: { analysis_id: id, verdict: 'common_rust' } });
      expect(notice.message).toBe(
        'Mtaalamu amekagua picha yako: kutu ya maharagwe (Uromyces appendiculatus). Maelezo ya mtaalamu: “Nyunyiza dawa ya kuvu wiki hii.”',
      );

      // By SMS, in Kiswahili, one message: the first step of the advice and the link to the analysis.
      const link = `${t.deps.config.publicUrl}${shortLinks.analysis(id)}`;
      const sms = joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === swahili.phone));
      expect(sms).toHaveLength(1);
      expect(sms[0]!.text).toBe(
        `Kutu: mtaalamu anasema: kutu ya maharagwe. Tembea shambani wiki hii uhesabu mimea yenye kutu. ${link}`,
      );
      expect(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === swahili.phone)).toHaveLength(1);

      // By email (a real SMTP peer), the note and the link in it.
      const mail = await t.smtp.lastMailTo(swahili.email);
      expect(mail.subject).toBe('Mtaalamu amekagua picha ya jani lako');
      expect(mail.text).toContain('Nyunyiza dawa ya kuvu wiki hii.');
      expect(mail.text).toContain(link);

      // History marks the reviewed photo with the verdict; an unreviewed one has none.
      const other = await seed({ crop: 'maize' }, swahili);
      const history = (await get(analysisApi.list, swahili)).json().results as {
        id: number;
        expert_verdict: string | null;
      }[];
      expect(history.find((a) => a.id === id)?.expert_verdict).toBe('common_rust');
      expect(history.find((a) => a.id === other)?.expert_verdict).toBeNull();
    });

    it('names rust on maize "common rust" in the farmer\'s notification', async () => {
      const id = await seed({ crop: 'maize' });
      expect((await decide(id, expert, 'common_rust')).statusCode).toBe(200);
      const [notice] = (await get(notificationsApi.list, farmer)).json().results;
      expect(notice.message).toBe('An expert reviewed your photo: common rust (Puccinia sorghi)');
    });

    it('lets the same expert revise: the sample is relabelled, removed for no class, and made again', async () => {
      const id = await seed();
      const first = (await decide(id, expert, 'common_rust')).json() as ExpertReview;
      expect(first.agrees).toBe(true);
      const counts = async () => (await get(trainingApi.counts, expert)).json() as SampleCounts;
      expect((await counts()).common_rust).toBe(1);

      const relabelled = await decide(id, expert, 'other_disease', 'Grey leaf spot, not rust');
      expect(relabelled.statusCode).toBe(200);
      expect(relabelled.json()).toMatchObject({ verdict: 'other_disease', sample_id: first.sample_id });
      expect(relabelled.json().revised_at).not.toBeNull();
      expect(await counts()).toMatchObject({ common_rust: 0, other_disease: 1 });

      const cannotTell = await decide(id, expert, 'cannot_tell');
      expect(cannotTell.json()).toMatchObject({ verdict: 'cannot_tell', sample_id: null, agrees: null });
      expect((await counts()).total).toBe(0);

      const again = await decide(id, expert, 'common_rust');
      expect(again.json().sample_id).toBeTypeOf('number');
      expect(again.json().sample_id).not.toBe(first.sample_id);
      expect((await counts()).common_rust).toBe(1);

      // The expert finds it among their verdicts; the other expert does not.
      const mineNow = (await get(reviewApi.decided, expert)).json() as MyReviewPage;
      expect(mineNow.results.map((r) => [r.analysis.id, r.review.verdict])).toEqual([[id, 'common_rust']]);
      expect(((await get(reviewApi.decided, otherExpert)).json() as MyReviewPage).count).toBe(0);
      expect((await get(reviewApi.decided, farmer)).statusCode).toBe(403);

      // Another expert cannot change it.
      const other = await decide(id, otherExpert, 'healthy');
      expect(other.statusCode).toBe(409);
      expect(other.json().error.message).toContain(expert.username);

      const messages = await t.deps.database.db
        .select({ message: notifications.message })
        .from(notifications)
        .where(and(eq(notifications.userId, farmer.id), eq(notifications.type, 'expert_review')));
      expect(messages.map((m) => m.message)).toContain('An expert changed their answer on your photo: rust');
    });

    it('never trains a class from "not a leaf" or "cannot tell"', async () => {
      const a = await seed();
      const b = await seed();
      expect((await decide(a, expert, 'not_leaf')).json().sample_id).toBeNull();
      expect((await decide(b, expert, 'cannot_tell')).json().sample_id).toBeNull();
      expect(await liveSamples()).toHaveLength(0);
    });

    it('links a sample that the older from-analysis API already made instead of making a second', async () => {
      const id = await seed();
      const made = await t.app.inject({
        method: 'POST',
        url: trainingApi.fromAnalysis,
        headers: expert.headers,
        payload: { analysis_id: id, label: 'common_rust' },
      });
      expect(made.statusCode).toBe(201);
      const res = await decide(id, expert, 'healthy');
      expect(res.json().sample_id).toBe(made.json().samples[0].id);
      expect((await liveSamples()).map((s) => s.label)).toEqual(['healthy']);
    });

    it('refuses an unknown verdict and a missing analysis clearly', async () => {
      const id = await seed();
      const bad = await decide(id, expert, 'rusty');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toContain('Choose a verdict');
      expect((await decide(999_999, expert, 'healthy')).statusCode).toBe(404);
    });
  });

  describe('ask an expert, community post and dashboard', () => {
    it('takes a question, answers it, counts it answered and refuses a second question', async () => {
      const id = await seed();
      const empty = await t.app.inject({ method: 'POST', url: ask(id), headers: farmer.headers, payload: {} });
      expect(empty.statusCode).toBe(400);
      await t.app.inject({ method: 'POST', url: ask(id), headers: farmer.headers, payload: { question: 'Rust?' } });
      let summary = (await get(SUMMARY, farmer)).json() as ReviewSummary;
      expect(summary).toMatchObject({ role: 'farmer', questions_asked: 1, questions_answered: 0 });

      await decide(id, expert, 'common_rust', 'Spray a fungicide within a week.');
      summary = (await get(SUMMARY, farmer)).json() as ReviewSummary;
      expect(summary).toMatchObject({ questions_asked: 1, questions_answered: 1 });
      const again = await t.app.inject({
        method: 'POST',
        url: ask(id),
        headers: farmer.headers,
        payload: { question: 'And now?' },
      });
      expect(again.statusCode).toBe(409);
    });

    it('turns the answered exchange into one community post of the farmer', async () => {
      const id = await seed({ crop: 'maize' });
      expect((await t.app.inject({ method: 'POST', url: toPost(id), headers: farmer.headers })).statusCode).toBe(409);
      await t.app.inject({ method: 'POST', url: ask(id), headers: farmer.headers, payload: { question: 'Rust?' } });
      await decide(id, expert, 'common_rust', 'Yes: common rust pustules.');
      const res = await t.app.inject({ method: 'POST', url: toPost(id), headers: farmer.headers });
      expect(res.statusCode).toBe(201);
      const post = await get(communityPath(communityApi.post, { id: res.json().post_id }), farmer);
      expect(post.statusCode).toBe(200);
      expect(post.json()).toMatchObject({ crop_type: 'MAIZE', disease_type: 'common_rust', rust_detection: id });
      expect(post.json().content).toContain('My question: Rust?');
      expect(post.json().content).toContain('Expert note: Yes: common rust pustules.');
      expect((await t.app.inject({ method: 'POST', url: toPost(id), headers: farmer.headers })).statusCode).toBe(409);
      expect((await get(review(id), farmer)).json().community_post_id).toBe(res.json().post_id);
    });

    it('gives experts what waits, what they reviewed this week and how often they agreed', async () => {
      t.clock.set(new Date('2026-06-10T09:00:00Z')); // a Wednesday
      const a = await seed();
      const b = await seed({ rustClass: 'healthy', probs: [0.1, 0.85, 0.05] });
      await seed();
      await decide(a, expert, 'common_rust'); // agrees
      await decide(b, expert, 'common_rust'); // disagrees
      let s = (await get(SUMMARY, expert)).json() as ReviewSummary;
      expect(s).toMatchObject({ role: 'expert', waiting: 1, reviewed_by_me_this_week: 2, my_agreement_rate: 0.5 });
      t.clock.set(new Date('2026-06-15T09:00:00Z')); // next Monday
      s = (await get(SUMMARY, expert)).json() as ReviewSummary;
      expect(s.reviewed_by_me_this_week).toBe(0);
    });

    it('starts the week on Monday 00:00 East Africa Time', () => {
      expect(weekStart(new Date('2026-06-10T09:00:00Z')).toISOString()).toBe('2026-06-07T21:00:00.000Z');
      // Sunday 22:30 UTC is already Monday 01:30 in Kampala.
      expect(weekStart(new Date('2026-06-14T22:30:00Z')).toISOString()).toBe('2026-06-14T21:00:00.000Z');
    });
  });

  describe('field accuracy', () => {
    it('measures agreement, unsure rate and the confusion matrix per model version and crop', async () => {
      const v1 = 'v-field-1';
      const rustMaize = await seed({ modelVersion: v1, crop: 'maize' });
      const rustMaize2 = await seed({ modelVersion: v1, crop: 'maize' });
      const healthyBeans = await seed({
        modelVersion: v1,
        crop: 'beans',
        rustClass: 'healthy',
        probs: [0.1, 0.8, 0.1],
      });
      const unsureBeans = await seed({ modelVersion: v1, crop: 'beans', unsure: true, probs: [0.45, 0.4, 0.15] });
      const cannotTell = await seed({ modelVersion: v1, crop: 'maize' });
      await seed({ modelVersion: v1, crop: 'maize', unsure: true, probs: [0.4, 0.3, 0.3] }); // not reviewed
      const v2 = await seed({ modelVersion: 'v-field-2' });

      await decide(rustMaize, expert, 'common_rust');
      await decide(rustMaize2, otherExpert, 'healthy');
      await decide(healthyBeans, expert, 'healthy');
      await decide(unsureBeans, expert, 'common_rust');
      await decide(cannotTell, expert, 'cannot_tell');
      await decide(v2, expert, 'other_disease');

      const reply = (await get(FIELD, expert)).json() as FieldAccuracyReply;
      const one = reply.versions.find((v) => v.model_version === v1)!;
      expect(one).toMatchObject({ analyses: 6, reviewed: 5, confident_reviewed: 3 });
      expect(one.agreement).toBeCloseTo(2 / 3, 6);
      expect(one.unsure_rate).toBeCloseTo(2 / 6, 6);
      expect(one.confusion.common_rust).toMatchObject({ common_rust: 1, healthy: 1, cannot_tell: 1 });
      expect(one.confusion.healthy.healthy).toBe(1);
      expect(one.confusion.unsure.common_rust).toBe(1);
      expect(one.by_crop.maize).toMatchObject({ analyses: 4, reviewed: 3, confident_reviewed: 2, agreement: 0.5 });
      expect(one.by_crop.beans).toMatchObject({ analyses: 2, reviewed: 2, confident_reviewed: 1, agreement: 1 });
      const two = reply.versions.find((v) => v.model_version === 'v-field-2')!;
      expect(two).toMatchObject({ reviewed: 1, confident_reviewed: 1, agreement: 0 });

      // A revision moves the figure.
      await decide(rustMaize2, otherExpert, 'common_rust');
      const after = (await get(FIELD, expert)).json() as FieldAccuracyReply;
      expect(after.versions.find((v) => v.model_version === v1)!.agreement).toBe(1);
    });
  });

  describe('the upload says which crop and keeps the heatmap', () => {
    const upload = (fields: Record<string, string>, photo = 'maize-common-rust.jpg') => {
      const form = multipart([{ filename: 'leaf.jpg', data: fixture(photo) }], fields);
      return t.app.inject({
        method: 'POST',
        url: analysisApi.detect,
        payload: form.payload,
        headers: { ...form.headers, ...farmer.headers },
      });
    };

    it('stores the crop the farmer named and refuses an unknown one', async () => {
      const res = await upload({ crop: 'beans' }, 'bean-rust.jpg');
      expect(res.statusCode).toBe(201);
      expect(res.json().crop).toBe('beans');
      const id = res.json().id as number;
      const [row] = await t.deps.database.db.select().from(analyses).where(eq(analyses.id, id));
      expect(row.crop).toBe('beans');
      expect(await queueIds({ crop: 'beans' })).toEqual([id]);
      // None said (and no field): the crop of the farmer's profile (maize).
      expect((await upload({})).json().crop).toBe('maize');

      const refused = await upload({ crop: 'wheat' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe('crop must be maize, beans or other');
    });

    it("serves the model's heatmap as a PNG to the owner and experts only", async () => {
      const res = await upload({ crop: 'maize' });
      expect(res.statusCode).toBe(201);
      const { id, heatmap_url: url, outcome } = res.json();
      expect(outcome).toBe('diagnosis');
      expect(url).toBe(`/api/rust-detection/${id}/heatmap/`);
      for (const who of [farmer, expert]) {
        const png = await get(url, who);
        expect(png.statusCode).toBe(200);
        expect(png.headers['content-type']).toBe('image/png');
        expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
      }
      expect((await get(url, otherFarmer)).statusCode).toBe(404);
      expect((await get(url, null)).statusCode).toBe(401);
      const queued = (await get(QUEUE, expert)).json() as ReviewQueuePage;
      expect(queued.results[0].analysis.heatmap_url).toBe(url);

      // A seeded analysis without a heatmap says so.
      const plain = await seed();
      expect((await get(analysisApi.heatmapPath(plain), farmer)).statusCode).toBe(404);
    });
  });

  it('keeps one review row per analysis', async () => {
    const id = await seed();
    await t.app.inject({ method: 'POST', url: claim(id), headers: expert.headers });
    await t.app.inject({ method: 'POST', url: ask(id), headers: farmer.headers, payload: { question: 'Rust?' } });
    await decide(id, expert, 'healthy');
    const rows = await t.deps.database.db.select().from(expertReviews).where(eq(expertReviews.analysisId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ question: 'Rust?', verdict: 'healthy', claimedBy: null });
  });
});
