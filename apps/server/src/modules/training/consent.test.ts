import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyApi } from '@kutu/contract';
import { analyses, trainingSamples } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { createFieldSetRepo } from './field-set.repo.ts';
import { trainingSources } from '../../ports.ts';

/** What a retraining learns from: experts' uploads, and farmers' photos only with their owner's yes. */
describe('training respects the photo owner’s consent', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  const ids = { upload: 0, fromFarmer: 0 };
  const trainable = async () =>
    (await createFieldSetRepo(t.deps.database.db, trainingSources).allLiveSamples()).map((s) => s.id);
  const choose = async (training: boolean) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: privacyApi.consents,
      headers: farmer.headers,
      payload: { training },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().training).toMatchObject({ granted: training, channel: 'profile', text_version: '2026-11-v1' });
  };

  beforeAll(async () => {
    t = await createTestApp();
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    const db = t.deps.database.db;
    const [analysis] = await db
      .insert(analyses)
      .values({
        userId: farmer.id,
        imagePath: 'analyses/a.jpg',
        outcome: 'diagnosis',
        rustClass: 'common_rust',
        confidence: 0.9,
        probabilities: { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 },
        modelVersion: 'v1',
      })
      .returning();
    const rows = await db
      .insert(trainingSamples)
      .values([
        { uploaderId: expert.id, imagePath: 'training/expert.jpg', label: 'healthy' },
        {
          uploaderId: expert.id,
          imagePath: 'training/farmer.jpg',
          label: 'common_rust',
          sourceAnalysisId: analysis.id,
        },
      ])
      .returning();
    ids.upload = rows[0].id;
    ids.fromFarmer = rows[1].id;
  });
  afterAll(() => t.close());

  it('leaves out a photo of before consent was asked, takes it once the owner agrees, and drops it when they withdraw', async () => {
    expect(await trainable()).toEqual([ids.upload]);
    await choose(true);
    expect(await trainable()).toEqual([ids.upload, ids.fromFarmer]);
    await choose(false);
    expect(await trainable()).toEqual([ids.upload]);
  });
});
