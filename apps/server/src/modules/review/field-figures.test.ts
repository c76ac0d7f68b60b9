import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FieldFiguresReply, reviewApi, wilsonInterval } from '@kutu/contract';
import { analyses, expertReviews } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';

/** Kutu's live field figures (docs/decisions/0086): from the experts' verdicts, by crop and month. */
describe('live field figures', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    admin = await createUser(t, 'admin');
    t.clock.set(new Date('2026-12-10T09:00:00Z'));
  });
  afterAll(() => t.close());

  /** An analysis Kutu answered (`unsure`, or a class; null: "not a leaf") and the expert's verdict on it. */
  async function verified(
    answer: string | null,
    unsure: boolean,
    verdict: string,
    crop: 'maize' | 'beans' | null,
    at: string,
  ) {
    const [a] = await t.deps.database.db
      .insert(analyses)
      .values({
        userId: farmer.id,
        imagePath: 'analyses/x.jpg',
        outcome: answer ? 'diagnosis' : 'not_leaf',
        rustClass: answer,
        confidence: 0.9,
        unsure,
        probabilities: { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 },
        modelVersion: 'v-test',
        crop,
        createdAt: new Date(at),
      })
      .returning();
    await t.deps.database.db
      .insert(expertReviews)
      .values({ analysisId: a.id, reviewerId: expert.id, verdict: verdict as 'healthy', reviewedAt: new Date(at) });
  }

  it('counts right, confidently wrong and unsure per crop and East Africa month, with 95% Wilson intervals', async () => {
    // December (EAT) maize: 3 right, 1 confidently wrong, 1 unsure, 1 "not a leaf" on a leaf.
    for (let i = 0; i < 3; i++) await verified('common_rust', false, 'common_rust', 'maize', '2026-12-02T08:00:00Z');
    await verified('healthy', false, 'common_rust', 'maize', '2026-12-03T08:00:00Z');
    await verified('common_rust', true, 'common_rust', 'maize', '2026-12-04T08:00:00Z');
    await verified(null, false, 'healthy', 'maize', '2026-12-05T08:00:00Z');
    // 22:00 UTC on 30 November is 1 December in East Africa.
    await verified('healthy', false, 'healthy', 'maize', '2026-11-30T22:00:00Z');
    // November beans; a verdict that is no crop class, and one of thirteen months ago, count only in "all time".
    await verified('healthy', false, 'healthy', 'beans', '2026-11-15T08:00:00Z');
    await verified('healthy', false, 'cannot_tell', 'beans', '2026-11-16T08:00:00Z');
    await verified('other_disease', false, 'healthy', 'beans', '2025-11-15T08:00:00Z');

    const res = await t.app.inject({ url: reviewApi.fieldFigures, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const { rows, months } = res.json() as FieldFiguresReply;
    expect(months).toBe(12);
    expect(rows.map((r) => [r.crop, r.month, r.checked])).toEqual([
      ['beans', '2026-11', 1],
      ['beans', null, 2],
      ['maize', '2026-12', 7],
      ['maize', null, 7],
    ]);
    const december = rows[2];
    expect(december.right).toEqual(wilsonInterval(4, 7));
    expect(december.confident_wrong).toEqual(wilsonInterval(1, 7));
    expect(december.unsure).toEqual(wilsonInterval(2, 7));
    expect(december.right!.low).toBeCloseTo(0.25, 2);
    expect(december.right!.high).toBeCloseTo(0.842, 2);
    expect(rows[1].confident_wrong).toEqual(wilsonInterval(1, 2));

    expect((await t.app.inject({ url: reviewApi.fieldFigures, headers: expert.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ url: reviewApi.fieldFigures, headers: farmer.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: reviewApi.fieldFigures })).statusCode).toBe(401);
  });
});
