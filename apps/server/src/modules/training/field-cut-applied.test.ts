import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisApi, offlineModelApi, privacyApi, reviewApi, trainingApi } from '@kutu/contract';
import { cardSettings, defaultModelDir } from '@kutu/vision';
import { analyses, modelVersions, trainingSamples } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { multipart, RUST3 } from '../../../test/support/training.ts';
import { registerCommittedModel } from './model-versions.ts';

/** iBean bean-rust field photos the served model answers rust, sure enough for the card (about 95 %). */
const PHOTO = fs.readFileSync(path.join(RUST3, 'common_rust', 'ibean__bean__bean_rust__0001.jpg'));
const OTHER_LEAF = fs.readFileSync(path.join(RUST3, 'common_rust', 'ibean__bean__bean_rust__0015.jpg'));
const CARD_CUT = cardSettings(JSON.parse(fs.readFileSync(path.join(defaultModelDir(), 'model.json'), 'utf8')))
  .thresholds.unsureBelow;
/** The share the seeded right answers sit at: the cut they teach when wrong ones sit just below it. */
const LEARNT = 0.99;
/** The share of the seeded confidently wrong answers: between the photo's and the learnt cut. */
const WRONG = 0.98;

/**
 * The unsure cut learnt from the field is applied (docs/decisions/0119): once the served version's verified
 * held-back photos of a crop show that answers below a stricter cut than the card's are too often confidently
 * wrong, its answers (and the phones') are unsure below that cut; with fewer photos, or on a version newly
 * activated, the card's cut answers.
 */
describe('the unsure cut learnt from verified field photos', () => {
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;
  let admin: TestUser;
  let tmp: string;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-field-cut-'));
    t = await createTestApp();
    await registerCommittedModel(t.deps.database.db, defaultModelDir());
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    admin = await createUser(t, 'admin');
    const agreed = await t.app.inject({
      method: 'PUT',
      url: privacyApi.consents,
      headers: farmer.headers,
      payload: { training: true },
    });
    expect(agreed.statusCode, agreed.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const get = async (url: string, who = admin) => (await t.app.inject({ url, headers: who.headers })).json();

  async function analyse() {
    const body = await multipart([{ name: 'leaf.jpg', data: PHOTO }], { crop: 'beans' });
    const res = await t.app.inject({
      method: 'POST',
      url: analysisApi.detect,
      headers: { ...farmer.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  /**
   * Held-back bean photos of this farmer that experts verified as rust and the served version answered: `right`
   * of them rust at `LEARNT`, `wrong` of them confidently healthy at `WRONG`.
   */
  async function seed(right: number, wrong: number) {
    const db = t.deps.database.db;
    const version = t.deps.classifier.current().version;
    const made = await db
      .insert(analyses)
      .values(
        Array.from({ length: right + wrong }, (_, i) => {
          const rust = i < right;
          const share = rust ? LEARNT : WRONG;
          return {
            userId: farmer.id,
            imagePath: `analyses/seeded-${i}.jpg`,
            outcome: 'diagnosis' as const,
            rustClass: rust ? 'common_rust' : 'healthy',
            confidence: share,
            probabilities: rust
              ? { common_rust: share, healthy: 1 - share, other_disease: 0 }
              : { common_rust: 1 - share, healthy: share, other_disease: 0 },
            modelVersion: version,
            crop: 'beans' as const,
          };
        }),
      )
      .returning({ id: analyses.id });
    await db.insert(trainingSamples).values(
      made.map((a) => ({
        uploaderId: expert.id,
        imagePath: `training/seeded-${a.id}.jpg`,
        label: 'common_rust' as const,
        cropType: 'BEANS',
        sourceAnalysisId: a.id,
        sourceModelVersion: version,
        heldOut: true,
      })),
    );
  }

  it("answers with the card's cut below 99 verified photos, and with the stricter learnt one from the 99th", async () => {
    // Confidently wrong answers sit just above the farmer's photo's share: 98 photos cannot show it yet.
    await seed(88, 10);
    const first = await analyse();
    expect(first).toMatchObject({ outcome: 'diagnosis', rust_class: 'common_rust', unsure: false });
    const share: number = first.confidence;
    expect(share).toBeGreaterThanOrEqual(CARD_CUT);
    expect(share).toBeLessThan(WRONG);
    const before = (await get(trainingApi.fieldSet)).cut.crops;
    expect(before).toEqual([
      { crop: 'beans', photos: 98, card_cut: CARD_CUT, cut: null, bound: null, applied: 'card', applied_since: null },
    ]);
    expect((await get(offlineModelApi.info, farmer)).unsure_cuts).toEqual({});

    // An expert verifies the first photo (held back, as this farmer's are): the 99th photo sets the cut.
    const verified = await t.app.inject({
      method: 'PUT',
      url: reviewApi.reviewPath(first.id),
      headers: expert.headers,
      payload: { verdict: 'common_rust' },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const [sample] = await t.deps.database.db.select().from(trainingSamples).orderBy(trainingSamples.id).limit(1);
    expect(sample.heldOut).toBe(true);

    const after = await analyse();
    expect(after).toMatchObject({ rust_class: 'common_rust', confidence: share, unsure: true });
    // Another leaf of that field: the field's answer is judged at the same cut.
    const body = await multipart([{ name: 'leaf.jpg', data: OTHER_LEAF }]);
    const added = await t.app.inject({
      method: 'POST',
      url: analysisApi.photosPath(after.id),
      headers: { ...farmer.headers, ...body.headers },
      payload: body.payload,
    });
    expect(added.statusCode, added.body).toBe(200);
    const field = added.json();
    expect(field).toMatchObject({ rust_class: 'common_rust', leaf_count: 2, unsure: true });
    expect(field.confidence).toBeGreaterThanOrEqual(CARD_CUT);
    expect(field.confidence).toBeLessThan(LEARNT);
    // The administrators' figures say it answers, since when; phones answer the crop's photos with it.
    const [beans] = (await get(trainingApi.fieldSet)).cut.crops;
    expect(beans).toMatchObject({ crop: 'beans', photos: 99, card_cut: CARD_CUT, applied: 'field' });
    expect(beans.cut).toBeCloseTo(LEARNT, 6);
    expect(beans.bound).toBeLessThanOrEqual(0.03);
    const newest = await t.deps.database.db.select({ at: trainingSamples.createdAt }).from(trainingSamples);
    expect(beans.applied_since).toBe(new Date(Math.max(...newest.map((r) => r.at.getTime()))).toISOString());
    const phone = await get(offlineModelApi.info, farmer);
    expect(Object.keys(phone.unsure_cuts)).toEqual(['beans']);
    expect(phone.unsure_cuts.beans).toBeCloseTo(LEARNT, 6);
    expect(phone.thresholds.unsureBelow).toBe(CARD_CUT);
  }, 120_000);

  it("starts a newly activated version from the card's cut", async () => {
    const dir = path.join(tmp, 'next');
    fs.mkdirSync(dir);
    fs.copyFileSync(path.join(defaultModelDir(), 'model.onnx'), path.join(dir, 'model.onnx'));
    const card = JSON.parse(fs.readFileSync(path.join(defaultModelDir(), 'model.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'model.json'), JSON.stringify({ ...card, version: 'v-field-cut-next' }));
    const [row] = await t.deps.database.db
      .insert(modelVersions)
      .values({ version: 'v-field-cut-next', path: dir, metrics: {}, isActive: false })
      .returning({ id: modelVersions.id });
    const activated = await t.app.inject({
      method: 'POST',
      url: trainingApi.activateVersion.replace(':id', String(row.id)),
      headers: expert.headers,
    });
    expect(activated.statusCode, activated.body).toBe(200);
    expect(t.deps.classifier.current().version).toBe('v-field-cut-next');

    // The same photo, the same share: the new version has answered none of the verified photos.
    const answer = await analyse();
    expect(answer).toMatchObject({ rust_class: 'common_rust', unsure: false, model_version: 'v-field-cut-next' });
    expect((await get(trainingApi.fieldSet)).cut).toMatchObject({ model_version: 'v-field-cut-next', crops: [] });
    expect((await get(offlineModelApi.info, farmer)).unsure_cuts).toEqual({});
  }, 120_000);
});
