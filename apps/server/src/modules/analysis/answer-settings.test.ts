import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalysisResult, analysisApi, type FieldAccuracyReply, offlineModelApi, reviewApi } from '@kutu/contract';
import { bandOf, type Classifier, cardSettings, combineShares, defaultModelDir, loadClassifier } from '@kutu/vision';
import { CHANGED_ANSWER } from '../../../../../packages/vision/test/changed-answer.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { fixture, uploadPhoto } from '../../../test/support/photos.ts';
import { createClassifierHolder } from '../../adapters/classifier.ts';

/**
 * The answer follows the served card's settings, not numbers in code: the committed model in a temporary
 * folder whose model.json carries other answer settings (`CHANGED_ANSWER`; the phone's engine is shown to
 * follow the same block in apps/web offline-severity.test.tsx).
 */
describe("the server's answer follows the card's answer settings", () => {
  const committed = cardSettings(JSON.parse(fs.readFileSync(path.join(defaultModelDir(), 'model.json'), 'utf8')));
  let dir: string;
  let model: Classifier;
  let t: TestContext;
  let farmer: TestUser;
  let expert: TestUser;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-answer-'));
    for (const file of ['model.onnx', 'model.int8.onnx', 'offline.json'])
      fs.copyFileSync(path.join(defaultModelDir(), file), path.join(dir, file));
    const card = JSON.parse(fs.readFileSync(path.join(defaultModelDir(), 'model.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'model.json'), JSON.stringify({ ...card, answer: CHANGED_ANSWER }));
    model = await loadClassifier(dir);
    t = await createTestApp({ classifier: createClassifierHolder(model) });
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
  });
  afterAll(async () => {
    await t.close();
    await model.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = (url: string, data: Buffer, fields?: Record<string, string>) =>
    uploadPhoto(t, farmer, url, data, fields);
  const rustPhoto = (name: string) =>
    fs.readFileSync(path.join(import.meta.dirname, '../../../../../datasets/rust3/common_rust', name));

  it("bands the severity at the card's cuts and asks for another leaf at its close margin", async () => {
    // A PlantDoc field leaf whose share is measured (6.7 %): under 1 % a confident rust answer shows none (0120).
    const res = await post(analysisApi.detect, rustPhoto('plantdoc__maize__common_rust__0012.jpg'), { crop: 'maize' });
    expect(res.statusCode, res.body).toBe(201);
    const result: AnalysisResult = res.json();
    expect(result).toMatchObject({ outcome: 'diagnosis', rust_class: 'common_rust', unsure: false });
    const share = result.severity?.share ?? Number.NaN;
    expect(result.severity?.band).toBe(bandOf(share, CHANGED_ANSWER.severityCuts));
    // The committed card's cuts band this leaf otherwise: the band came from the served card.
    expect(bandOf(share, committed.answer.severityCuts)).not.toBe(result.severity?.band);
    const [top, second] = Object.values(result.probabilities).sort((a, b) => b - a);
    // Not close at the committed card's margin; close at this card's 0.99.
    expect(top - second).toBeGreaterThanOrEqual(committed.answer.closeMargin);
    expect(result.second_photo).toMatchObject({ reason: 'close', photos_left: 2 });

    // The field-accuracy page bands the stored share in SQL at the same cuts.
    const rated = await t.app.inject({
      method: 'PUT',
      url: reviewApi.reviewPath(result.id),
      headers: expert.headers,
      payload: { verdict: 'common_rust', severity: 'low' },
    });
    expect(rated.statusCode, rated.body).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: reviewApi.fieldAccuracy, headers: expert.headers });
    const { severity } = page.json() as FieldAccuracyReply;
    expect(severity.rated).toBe(1);
    expect(severity.confusion[result.severity?.band ?? 'none'].low).toBe(1);
  });

  it("combines a field's leaves at the card's temper", async () => {
    const first: AnalysisResult = (
      await post(analysisApi.detect, fixture('maize-common-rust.jpg'), { crop: 'maize' })
    ).json();
    const res = await post(analysisApi.photosPath(first.id), rustPhoto('plantdoc__maize__common_rust__0003.jpg'));
    expect(res.statusCode, res.body).toBe(200);
    const field: AnalysisResult = res.json();
    const detail = (
      await t.app.inject({ method: 'GET', url: analysisApi.detailPath(first.id), headers: farmer.headers })
    ).json();
    expect(detail.photos).toHaveLength(2);
    const leaves = [
      first.probabilities,
      (await model.classify(rustPhoto('plantdoc__maize__common_rust__0003.jpg'), { crop: 'maize' })).probabilities,
    ];
    const tempered = combineShares(leaves, CHANGED_ANSWER.fieldTemper);
    expect(field.probabilities.common_rust).toBeCloseTo(tempered[0], 6);
    expect(field.probabilities.common_rust).not.toBeCloseTo(combineShares(leaves, committed.answer.fieldTemper)[0], 4);
  });

  it("measures and rings a leaf only as clearly as the card's leaf cut asks", async () => {
    // Below the committed card's cut this field photo's leaf is "could not be measured"; at this card's 0 it is
    // (iBean 0381: a leaf among others, whose pustules read 3.8 % at cut 0, over the 1 % a rust answer shows).
    const photo = rustPhoto('ibean__bean__bean_rust__0381.jpg');
    const res = await post(analysisApi.detect, photo, { crop: 'beans' });
    expect(res.statusCode, res.body).toBe(201);
    const result: AnalysisResult = res.json();
    expect(result).toMatchObject({ rust_class: 'common_rust', unsure: false, severity_unmeasured: false });
    expect(result.severity?.share).toBeGreaterThan(0);
    expect(result.rust_spots?.boxes.length).toBeGreaterThan(0);
    const committedModel = await loadClassifier(defaultModelDir());
    try {
      expect((await committedModel.classify(photo, { crop: 'beans' })).rust_share).toBeNull();
    } finally {
      await committedModel.close();
    }
  });

  it("gives phones the card's answer settings with its cuts", async () => {
    const res = await t.app.inject({ method: 'GET', url: offlineModelApi.info, headers: farmer.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().answer).toEqual(CHANGED_ANSWER);
  });
});
