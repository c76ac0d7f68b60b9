import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardApi } from '@kutu/contract';
import {
  analyses,
  availabilitySlots,
  bookings,
  moderationAudit,
  posts,
  trainingJobs,
  trainingSamples,
  responses,
  expertReviews,
} from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { lastMonths } from './dashboard.service.ts';

const NOW = new Date('2026-03-15T10:00:00Z');

describe('dashboard', () => {
  let t: TestContext;
  let farmer: TestUser;
  let farmerB: TestUser;
  let expert: TestUser;
  let expertB: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    [farmer, farmerB, expert, expertB] = await Promise.all([
      createUser(t, 'farmer'),
      createUser(t, 'farmer'),
      createUser(t, 'expert'),
      createUser(t, 'expert'),
    ]);
    const db = t.deps.database.db;

    const analysis = (
      userId: number,
      createdAt: string,
      outcome: 'diagnosis' | 'not_leaf',
      rustClass: string | null,
      unsure = false,
      rustLeaves: number | null = null,
    ) => ({
      userId,
      imagePath: 'uploads/x.jpg',
      outcome,
      rustClass,
      unsure,
      rustLeaves,
      confidence: 0.9,
      probabilities: {},
      modelVersion: 'v1',
      createdAt: new Date(createdAt),
    });
    const seeded = await db
      .insert(analyses)
      .values([
        analysis(farmer.id, '2026-03-10T08:00:00Z', 'diagnosis', 'common_rust'),
        analysis(farmer.id, '2026-03-11T08:00:00Z', 'diagnosis', 'common_rust', true), // unsure
        // A field: rust seen on 1 of its leaves (decision 0061), the rust advice: rust, though not sure.
        analysis(farmer.id, '2026-03-12T08:00:00Z', 'diagnosis', 'common_rust', true, 1),
        analysis(farmer.id, '2026-02-05T08:00:00Z', 'diagnosis', 'healthy'),
        // 1 October 01:30 in Kampala, still 30 September in UTC.
        analysis(farmer.id, '2025-09-30T22:30:00Z', 'diagnosis', 'other_disease'),
        analysis(farmer.id, '2025-09-15T08:00:00Z', 'diagnosis', 'common_rust'), // before the six months
        analysis(farmer.id, '2026-01-20T08:00:00Z', 'not_leaf', null),
        analysis(farmerB.id, '2026-03-01T08:00:00Z', 'diagnosis', 'healthy'),
      ])
      .returning();

    await db.insert(trainingSamples).values([
      { uploaderId: expert.id, imagePath: 'a.jpg', label: 'common_rust' },
      { uploaderId: expert.id, imagePath: 'b.jpg', label: 'common_rust' },
      { uploaderId: expert.id, imagePath: 'c.jpg', label: 'healthy' },
      { uploaderId: expert.id, imagePath: 'd.jpg', label: 'other_disease', removedAt: NOW },
      // Made from the farmer's first analysis.
      { uploaderId: expert.id, imagePath: 'e.jpg', label: 'common_rust', sourceAnalysisId: seeded[0].id },
      { uploaderId: expertB.id, imagePath: 'f.jpg', label: 'healthy', sourceAnalysisId: seeded[2].id, removedAt: NOW },
      { uploaderId: expertB.id, imagePath: 'g.jpg', label: 'other_disease' },
    ]);

    await db.insert(trainingJobs).values([
      { startedBy: expert.id, trigger: 'manual', status: 'succeeded' },
      { startedBy: expert.id, trigger: 'manual', status: 'failed' },
      { startedBy: expertB.id, trigger: 'manual', status: 'succeeded' },
      { startedBy: expertB.id, trigger: 'manual', status: 'rejected' },
      { startedBy: null, trigger: 'auto', status: 'succeeded' },
      { startedBy: null, trigger: 'auto', status: 'running' },
    ]);

    const post = (authorId: number, diseaseType: string, status: 'pending' | 'approved' | 'flagged') => ({
      authorId,
      title: 'Spots on my maize',
      content: 'Orange pustules on the leaves',
      cropType: 'MAIZE',
      diseaseType,
      urgencyLevel: 'high',
      status,
    });
    const [, p2, p3, p4] = await db
      .insert(posts)
      .values([
        post(farmer.id, 'common_rust', 'pending'),
        post(farmer.id, 'none', 'approved'),
        post(farmer.id, 'gray_leaf_spot', 'flagged'),
        post(farmerB.id, 'common_rust', 'approved'),
      ])
      .returning();
    const audit = (actorId: number, targetId: number, action: string) => ({
      actorId,
      action,
      targetType: 'post' as const,
      targetId,
    });
    await db
      .insert(moderationAudit)
      .values([
        audit(expert.id, p3.id, 'flag'),
        audit(expert.id, p3.id, 'unflag'),
        audit(expert.id, p2.id, 'approve'),
        audit(expertB.id, p4.id, 'approve'),
        { actorId: expert.id, action: 'approve', targetType: 'response' as const, targetId: p4.id },
      ]);

    const slot = (expertId: number, day: number) => ({
      expertId,
      startTime: new Date(Date.UTC(2026, 3, day, 8)),
      endTime: new Date(Date.UTC(2026, 3, day, 9)),
    });
    const [s1, s2, s3, s4, s5] = await db
      .insert(availabilitySlots)
      .values([slot(expert.id, 1), slot(expert.id, 2), slot(expert.id, 3), slot(expertB.id, 4), slot(expert.id, 5)])
      .returning();
    await db.insert(bookings).values([
      { slotId: s1.id, farmerId: farmer.id, status: 'approved', selectedDate: s1.startTime, decidedAt: NOW },
      { slotId: s2.id, farmerId: farmer.id, status: 'rejected', decidedAt: NOW },
      { slotId: s3.id, farmerId: farmerB.id, status: 'approved', selectedDate: s3.startTime, decidedAt: NOW },
      { slotId: s4.id, farmerId: farmer.id, status: 'approved', selectedDate: s4.startTime, decidedAt: NOW },
      { slotId: s5.id, farmerId: farmerB.id, status: 'pending' },
    ]);
  });
  afterAll(() => t.close());

  const get = (user: TestUser, query = '') =>
    t.app.inject({ method: 'GET', url: `${dashboardApi.summary}${query}`, headers: user.headers });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: dashboardApi.summary });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('gives a farmer their own numbers', async () => {
    const res = await get(farmer);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.role).toBe('farmer');
    expect(body.stats).toEqual({
      imagesAnalyzedRust: 3, // the field with rust seen on 1 leaf among them
      imagesAnalyzedHealthy: 1,
      imagesAnalyzedOtherDiseases: 1,
      totalImagesAnalyzed: 7,
      imagesTrainingRust: 1,
      imagesTrainingHealthy: 0, // that sample was removed
      imagesTrainingOtherDiseases: 0,
      trainingSessions: 3, // succeeded retrainings on the platform
      communityPostsRust: 2,
      bookingsConfirmed: 2,
    });
    expect(body.outcomes).toEqual({ common_rust: 3, healthy: 1, other_disease: 1, unclear: 2 });
    expect(body.farmer).toEqual({
      analyses: 7,
      questions_asked: 0,
      questions_answered: 0,
      posts: 3,
      posts_answered: 0,
      bookings_pending: 0,
      bookings_approved: 2,
    });
    expect((await get(expert)).json().farmer).toBeNull();
  });

  it("counts the farmer's questions and posts that experts answered", async () => {
    const db = t.deps.database.db;
    const mine = await db.select().from(analyses).where(eq(analyses.userId, farmer.id));
    const [approvedPost] = await db
      .select()
      .from(posts)
      .where(and(eq(posts.authorId, farmer.id), eq(posts.status, 'approved')));
    await db.insert(expertReviews).values([
      {
        analysisId: mine[0].id,
        question: 'Is it rust?',
        askedAt: NOW,
        reviewedAt: NOW,
        reviewerId: expert.id,
        verdict: 'common_rust',
      },
      { analysisId: mine[1].id, question: 'And this one?', askedAt: NOW },
      // Reviewed without a question: not a question answered.
      { analysisId: mine[2].id, reviewedAt: NOW, reviewerId: expert.id, verdict: 'common_rust' },
    ]);
    await db.insert(responses).values([
      { postId: approvedPost.id, authorId: expert.id, kind: 'expert', content: 'Spray early.', status: 'approved' },
      { postId: approvedPost.id, authorId: expert.id, kind: 'expert', content: 'And rotate.', status: 'approved' },
    ]);
    const body = (await get(farmer)).json();
    expect(body.farmer).toMatchObject({ questions_asked: 2, questions_answered: 1, posts: 3, posts_answered: 1 });
    await db.delete(responses).where(eq(responses.postId, approvedPost.id));
    await db.delete(expertReviews);
  });

  it('gives the farmer the last six months in Kampala time', async () => {
    const body = (await get(farmer)).json();
    expect(body.time_zone).toBe('Africa/Kampala');
    expect(body.monthly).toEqual([
      { month: '2025-10', common_rust: 0, healthy: 0, other_disease: 1 },
      { month: '2025-11', common_rust: 0, healthy: 0, other_disease: 0 },
      { month: '2025-12', common_rust: 0, healthy: 0, other_disease: 0 },
      { month: '2026-01', common_rust: 0, healthy: 0, other_disease: 0 },
      { month: '2026-02', common_rust: 0, healthy: 1, other_disease: 0 },
      { month: '2026-03', common_rust: 2, healthy: 0, other_disease: 0 },
    ]);
  });

  it('puts months in the requested time zone', async () => {
    const body = (await get(farmer, '?tz=UTC')).json();
    expect(body.time_zone).toBe('UTC');
    expect(body.monthly[0]).toMatchObject({ month: '2025-10', other_disease: 0 });
  });

  it('refuses an unknown time zone with a clear message', async () => {
    const res = await get(farmer, '?tz=Mars/Olympus');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', message: "Unknown time zone 'Mars/Olympus'" });
  });

  it('gives an expert all farmers’ analyses and their own training, moderation and bookings', async () => {
    const res = await get(expert);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.role).toBe('expert');
    expect(body.stats).toEqual({
      imagesAnalyzedRust: 3,
      imagesAnalyzedHealthy: 2,
      imagesAnalyzedOtherDiseases: 1,
      totalImagesAnalyzed: 8,
      imagesTrainingRust: 3,
      imagesTrainingHealthy: 1,
      imagesTrainingOtherDiseases: 0,
      trainingSessions: 2,
      communityPostsRust: 1, // the grey leaf spot post, moderated twice; the 'none' post does not count
      bookingsConfirmed: 2,
    });
    expect(body.outcomes).toEqual({ common_rust: 3, healthy: 2, other_disease: 1, unclear: 2 });
    expect(body.monthly.at(-1)).toEqual({
      month: '2026-03',

      common_rust: 2,
      healthy: 1,
      other_disease: 0,
    });
  });

  it('keeps experts apart from each other', async () => {
    const body = (await get(expertB)).json();
    expect(body.stats).toMatchObject({
      imagesTrainingRust: 0,
      imagesTrainingHealthy: 0,
      imagesTrainingOtherDiseases: 1,
      trainingSessions: 2,
      communityPostsRust: 1,
      bookingsConfirmed: 1,
    });
  });

  it('documents what each number means per role in the OpenAPI docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const docs = JSON.stringify(res.json().paths[dashboardApi.summary]);
    expect(docs).toContain("Expert: bookings on the expert's slots that they approved.");
    expect(docs).toContain('Farmer: own bookings an expert approved.');
  });

  it('gives a new user zeros and six empty months', async () => {
    const fresh = await createUser(t, 'farmer');
    const body = (await get(fresh)).json();
    expect(Object.entries(body.stats).filter(([key, v]) => key !== 'trainingSessions' && v !== 0)).toEqual([]);
    expect(body.outcomes).toEqual({ common_rust: 0, healthy: 0, other_disease: 0, unclear: 0 });
    expect(body.monthly).toHaveLength(6);
    expect(body.monthly.every((m: { common_rust: number }) => m.common_rust === 0)).toBe(true);
  });
});

describe('lastMonths', () => {
  it('crosses the year and follows the time zone', () => {
    const newYearInKampala = new Date('2025-12-31T22:00:00Z');
    expect(lastMonths(newYearInKampala, 'Africa/Kampala', 3)).toEqual(['2025-11', '2025-12', '2026-01']);
    expect(lastMonths(newYearInKampala, 'UTC', 2)).toEqual(['2025-11', '2025-12']);
  });
});
