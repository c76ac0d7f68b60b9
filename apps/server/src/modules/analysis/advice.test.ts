import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adviceTopics, type AdviceItem, analysisApi, notificationsApi } from '@kutu/contract';
import { analyses, notifications } from '../../db/schema/index.ts';
import { committedClassifier, createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createClassifierHolder } from '../../adapters/classifier.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';

const ADVICE = analysisApi.advice;

describe('advice per result and crop', () => {
  let t: TestContext;
  let farmer: TestUser;
  let otherFarmer: TestUser;
  let expert: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ classifier: createClassifierHolder(await committedClassifier()) });
    farmer = await createUser(t, 'farmer');
    otherFarmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
  });
  afterAll(() => t.close());

  const allAdvice = async (): Promise<AdviceItem[]> =>
    (await t.app.inject({ method: 'GET', url: ADVICE, headers: farmer.headers })).json().results;

  /** An analysis with a chosen outcome, as the classifier would have stored it. */
  async function analysis(d: {
    rustClass: string | null;
    unsure?: boolean;
    crop: 'maize' | 'beans' | 'other' | null;
  }): Promise<number> {
    const [row] = await t.deps.database.db
      .insert(analyses)
      .values({
        userId: farmer.id,
        imagePath: 'analyses/test/none.jpg',
        outcome: d.rustClass ? 'diagnosis' : 'not_leaf',
        rustClass: d.rustClass,
        confidence: 0.9,
        unsure: d.unsure ?? false,
        probabilities: { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 },
        modelVersion: 'test',
        crop: d.crop,
        createdAt: t.clock.now(),
      })
      .returning();
    return row.id;
  }
  const feedbackOf = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: analysisApi.detailPath(id), headers: farmer.headers })).json().feedback;

  it('is seeded for every topic with a general fallback, 3 to 5 steps and its sources', async () => {
    const items = await allAdvice();
    for (const topic of adviceTopics) {
      expect(
        items.find((a) => a.topic === topic && a.crop === 'general'),
        topic,
      ).toBeDefined();
    }
    for (const topic of ['common_rust', 'other_disease']) {
      expect(
        items
          .filter((a) => a.topic === topic)
          .map((a) => a.crop)
          .sort(),
      ).toEqual(['beans', 'general', 'maize']);
    }
    for (const a of items) {
      expect(a.steps.length, `${a.topic}/${a.crop}`).toBeGreaterThanOrEqual(3);
      expect(a.steps.length, `${a.topic}/${a.crop}`).toBeLessThanOrEqual(5);
      expect(a.headline.length).toBeLessThanOrEqual(140);
      expect(a.sources.length).toBeGreaterThan(0);
      for (const s of a.sources) expect(s.url).toMatch(/^https?:\/\/[a-z0-9.-]+\.[a-z]{2,}\//);
    }
    // Fungicide advice names active ingredients and the label, and says where registration is checked.
    const maizeRust = items.find((a) => a.topic === 'common_rust' && a.crop === 'maize');
    expect(maizeRust?.steps.join(' ')).toMatch(/azoxystrobin/);
    expect(maizeRust?.steps.join(' ')).toMatch(/registered for maize in Kenya \(PCPB\) or Uganda \(MAAIF\)/);
  });

  it("gives each result the advice of its topic and crop, and the topic's general advice for other crops", async () => {
    const items = await allAdvice();
    const entry = (topic: string, crop: string) => items.find((a) => a.topic === topic && a.crop === crop);
    const cases = [
      { rustClass: 'common_rust', crop: 'maize', want: entry('common_rust', 'maize') },
      { rustClass: 'common_rust', crop: 'beans', want: entry('common_rust', 'beans') },
      { rustClass: 'common_rust', crop: 'other', want: entry('common_rust', 'general') },
      { rustClass: 'common_rust', crop: null, want: entry('common_rust', 'general') },
      { rustClass: 'other_disease', crop: 'beans', want: entry('other_disease', 'beans') },
      { rustClass: 'other_disease', crop: 'maize', want: entry('other_disease', 'maize') },
      { rustClass: 'healthy', crop: 'maize', want: entry('healthy', 'maize') },
      // No healthy-beans entry: the fallback.
      { rustClass: 'healthy', crop: 'beans', want: entry('healthy', 'general') },
      { rustClass: 'common_rust', unsure: true, crop: 'maize', want: entry('unsure', 'general') },
      // A farmer who chose the crop is not asked to choose it (docs/decisions/0049).
      { rustClass: null, crop: 'beans', want: entry('not_leaf', 'beans') },
      { rustClass: null, crop: 'other', want: entry('not_leaf', 'general') },
    ] as const;
    for (const c of cases) {
      expect(c.want).toBeDefined();
      const feedback = await feedbackOf(await analysis(c));
      expect(feedback, JSON.stringify(c)).toMatchObject({
        headline: c.want?.headline,
        advice: c.want?.steps,
        more: c.want?.more,
        advice_crop: c.want?.crop,
      });
    }
    const healthy = await feedbackOf(await analysis({ rustClass: 'healthy', crop: 'maize' }));
    expect(healthy.finding).toEqual({ key: 'analysis.result.heading.healthy' });
  });

  it('experts edit it and results show the edit at once; farmers cannot', async () => {
    const target = (await allAdvice()).find((a) => a.topic === 'common_rust' && a.crop === 'beans');
    if (!target) throw new Error('seed missing');
    const body = {
      headline: '  Bean rust: spray only after checking  ',
      steps: ['Check under the leaves.', 'Count the plants with rust.', 'Ask the plant clinic.'],
      more: ['Rotate with maize.'],
    };
    const put = (user: TestUser | null, payload: object, id = target.id) =>
      t.app.inject({ method: 'PUT', url: `${ADVICE}${id}/`, headers: user?.headers ?? {}, payload });

    expect((await put(null, body)).statusCode).toBe(401);
    expect((await put(farmer, body)).statusCode).toBe(403);
    const tooFew = await put(expert, { ...body, steps: ['One step.', 'Two steps.'] });
    expect(tooFew.statusCode).toBe(400);
    expect(tooFew.body).toContain('Write at least 3 steps');
    const tooMany = await put(expert, { ...body, steps: ['a step', 'b step', 'c step', 'd step', 'e step', 'f step'] });
    expect(tooMany.statusCode).toBe(400);
    expect((await put(expert, body, 999999)).statusCode).toBe(404);

    const ok = await put(expert, body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ headline: 'Bean rust: spray only after checking', steps: body.steps });
    const feedback = await feedbackOf(await analysis({ rustClass: 'common_rust', crop: 'beans' }));
    expect(feedback).toMatchObject({ headline: 'Bean rust: spray only after checking', advice: body.steps });
    // Sources stay with the entry.
    expect(feedback.sources).toEqual(target.sources);
  });

  it("marks a result's notification read when the farmer looks at it, and only for its owner", async () => {
    const form = multipart([{ filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }], { crop: 'maize' });
    const res = await t.app.inject({
      method: 'POST',
      url: analysisApi.detect,
      payload: form.payload,
      headers: { ...form.headers, ...farmer.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    const unread = async () =>
      (
        await t.deps.database.db
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, farmer.id), eq(notifications.type, 'image_analysis')))
      ).filter((n) => n.readAt === null && n.data.analysis_id === id);
    expect(await unread()).toHaveLength(1);

    const seen = (user: TestUser) =>
      t.app.inject({ method: 'POST', url: analysisApi.seenPath(id), headers: user.headers });
    expect((await seen(otherFarmer)).statusCode).toBe(404);
    expect(await unread()).toHaveLength(1);
    expect((await seen(expert)).statusCode).toBe(403);
    const mine = await seen(farmer);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ updated: 1 });
    expect(await unread()).toHaveLength(0);
    const count = await t.app.inject({
      method: 'GET',
      url: `${notificationsApi.list}?unread=true`,
      headers: farmer.headers,
    });
    expect(count.json().results.some((n: { data: { analysis_id?: number } }) => n.data.analysis_id === id)).toBe(false);
  });
});
