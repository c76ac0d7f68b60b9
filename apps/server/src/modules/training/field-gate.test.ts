import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { analysisApi, offlineModelApi, privacyApi, reviewApi, trainingApi } from '@kutu/contract';
import { defaultModelDir, holdsOutFarmer, type OnnxHead, readOnnxHead, withOnnxHead } from '@kutu/vision';
import { modelActivations, trainingSamples } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { multipart, RUST3 } from '../../../test/support/training.ts';
import { createVisionTrainer, type Trainer, type TrainRequest } from '../../adapters/trainer.ts';
import { registerCommittedModel } from './model-versions.ts';

/** iBean bean-rust field photos (the served model answers them rust) and PlantVillage healthy lab photos. */
const rustField = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) =>
    path.join(RUST3, 'common_rust', `ibean__bean__bean_rust__${String(from + i).padStart(4, '0')}.jpg`),
  );
const healthyLab = [1, 2, 3, 4].map((i) =>
  path.join(RUST3, 'healthy', `plantvillage__maize__healthy__${String(i).padStart(4, '0')}.jpg`),
);

/**
 * The field gate end to end (docs/decisions/0086): farmers' photos verified by an expert become samples,
 * one farmer in five held back; a retraining's candidate is judged on those photos beside today's rule;
 * a refused one never reaches phones, an accepted one is their next offline model. The candidates are
 * the active model with a head this test chooses (the fit itself is retraining.test.ts's); their
 * evaluation, answers, the decision and activation are the product's own.
 */
describe('the field gate in a retraining', () => {
  let t: TestContext;
  let tmp: string;
  let expert: TestUser;
  const held: TestUser[] = [];
  let trained: TestUser | undefined;
  let heldWithoutConsent: TestUser | undefined;
  let baseVersion: string;
  /** What the next candidate's head is, from the active one's. */
  let nextHead: (head: OnnxHead) => OnnxHead = (head) => head;
  const requests: TrainRequest[] = [];
  const real = createVisionTrainer({ threads: 1 });
  const trainer: Trainer = {
    ...real,
    async train(req) {
      requests.push(req);
      const onnx = fs.readFileSync(path.join(req.initFrom, 'model.onnx'));
      const card = JSON.parse(fs.readFileSync(path.join(req.initFrom, 'model.json'), 'utf8'));
      fs.mkdirSync(req.outDir, { recursive: true });
      fs.writeFileSync(path.join(req.outDir, 'model.onnx'), withOnnxHead(onnx, nextHead(readOnnxHead(onnx))));
      fs.writeFileSync(path.join(req.outDir, 'model.json'), JSON.stringify({ ...card, version: req.version }));
      return {};
    },
  };

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-field-gate-'));
    const evalFile = path.join(tmp, 'eval.json');
    fs.writeFileSync(evalFile, JSON.stringify({ items: healthyLab.map((file) => ({ file, label: 'healthy' })) }));
    t = await createTestApp({
      workJobs: true,
      env: { RETRAIN_AFTER_SAMPLES: '0', TRAINING_EVAL_SET: evalFile, TRAINING_FIELD_MIN_PHOTOS: '6' },
      training: { trainer },
    });
    await registerCommittedModel(t.deps.database.db, defaultModelDir());
    baseVersion = t.deps.classifier.current().version;
    expert = await createUser(t, 'expert');
    // Farmers come in id order; the held-back ones are those `holdsOutFarmer` picks, as in the product.
    while (!trained || held.length < 2 || !heldWithoutConsent) {
      const farmer = await createUser(t, 'farmer');
      if (!holdsOutFarmer(farmer.id)) trained ??= farmer;
      else if (held.length < 2) held.push(farmer);
      else heldWithoutConsent = farmer;
    }
  }, 300_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const get = async (url: string, who = expert) => t.app.inject({ url, headers: who.headers });

  async function verified(farmer: TestUser, files: string[], consent: boolean) {
    const res = await t.app.inject({
      method: 'PUT',
      url: privacyApi.consents,
      headers: farmer.headers,
      payload: { training: consent },
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const file of files) {
      const body = await multipart([{ name: path.basename(file), data: fs.readFileSync(file) }], { crop: 'beans' });
      const analysed = await t.app.inject({
        method: 'POST',
        url: analysisApi.detect,
        headers: { ...farmer.headers, ...body.headers },
        payload: body.payload,
      });
      expect(analysed.statusCode, analysed.body).toBe(201);
      const decided = await t.app.inject({
        method: 'PUT',
        url: reviewApi.reviewPath(analysed.json().id),
        headers: expert.headers,
        payload: { verdict: 'common_rust' },
      });
      expect(decided.statusCode, decided.body).toBe(200);
    }
  }

  async function retrain() {
    const started = await t.app.inject({ method: 'POST', url: trainingApi.jobs, headers: expert.headers });
    expect(started.statusCode, started.body).toBe(202);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = (await get(`${trainingApi.jobs}${started.json().id}/`)).json();
      if (['succeeded', 'rejected', 'failed'].includes(job.status)) return job;
      if (Date.now() > deadline) throw new Error(`job still ${job.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('holds back the verified photos of one farmer in five, by farmer, and only with their owner’s consent', async () => {
    await verified(held[0], rustField(1, 4), true);
    await verified(held[1], rustField(5, 4), true);
    await verified(trained!, rustField(20, 2), true);
    await verified(heldWithoutConsent!, rustField(30, 1), false);
    const rows = await t.deps.database.db.select().from(trainingSamples);
    expect(rows.slice(0, 8).map((r) => r.heldOut)).toEqual(Array(8).fill(true));
    expect(rows.slice(8, 10).map((r) => r.heldOut)).toEqual([false, false]);
    expect(rows[10].heldOut).toBe(true);
    const counts = (await get(trainingApi.counts)).json();
    expect(counts).toMatchObject({ common_rust: 2, total: 2, held_back: 8, new_since_last_job: 2 });
    const set = (await get(trainingApi.fieldSet)).json();
    expect(set).toMatchObject({
      min_photos: 6,
      hold_out_every: 5,
      crops: [{ crop: 'beans', photos: 8, by_class: { common_rust: 8 }, enough: true }],
      last_check: null,
    });
    // 8 photos answered by the served model cannot show 3 % confidently wrong: the card's cut stands (0119).
    expect(set.cut).toMatchObject({
      max_wrong: 0.03,
      model_version: t.deps.classifier.current().version,
      crops: [{ crop: 'beans', photos: 8, cut: null, bound: null, card_cut: expect.any(Number) }],
    });
    // Farmers never see it; administrators do.
    expect((await get(trainingApi.fieldSet, held[0])).statusCode).toBe(403);
    expect((await get(trainingApi.fieldSet, await createUser(t, 'admin'))).statusCode).toBe(200);
  }, 120_000);

  it('refuses a candidate that today’s rule accepts but that loses the held-back field beans, and phones never get it', async () => {
    // Every leaf answered "healthy", confidently: the healthy lab photos of today's set stay right.
    nextHead = (head) => {
      const bias = Float32Array.from(head.bias);
      bias[1] += 20;
      return { ...head, bias };
    };
    const job = await retrain();
    expect(job.status).toBe('rejected');
    const { result } = job;
    expect(result.candidate.accuracy).toBeGreaterThanOrEqual(result.active.accuracy);
    expect(result.candidate.macro_f1).toBeGreaterThanOrEqual(result.active.macro_f1);
    const [beans] = result.field_check.crops;
    expect(beans).toMatchObject({
      crop: 'beans',
      photos: 8,
      outcome: 'worse',
      fewer_right: true,
      more_confident_wrong: true,
      right: { candidate: 0 },
      confident_wrong: { candidate: 8 },
    });
    expect(beans.right.active).toBeGreaterThanOrEqual(6);
    expect(result.reason).toMatch(/^refused: on the field photos of beans the candidate is worse; not worse: /);
    // Only the training side was trained on.
    expect(requests.at(-1)!.extraSamples).toHaveLength(2);
    // The candidate's own card says how it fared.
    const version = job.candidate_version;
    const card = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'models', version, 'model.json'), 'utf8'));
    expect(card.field_check.crops[0]).toMatchObject({ crop: 'beans', outcome: 'worse' });
    // Never in service: the server's classifier and the phones' offline model stay the active one.
    expect(t.deps.classifier.current().version).toBe(baseVersion);
    expect((await get(offlineModelApi.info)).json().version).toBe(baseVersion);
    expect((await get(offlineModelApi.filePath(version))).statusCode).toBe(404);
    expect((await get(trainingApi.fieldSet)).json().last_check).toMatchObject({ version, accepted: false });
  }, 120_000);

  it('leaves an equal candidate on too few photos to a person, and phones get it once it is activated', async () => {
    nextHead = (head) => head;
    const job = await retrain();
    // Equal on every photo, but too few photos to show it within a point: not activated on its own.
    expect(job.status).toBe('rejected');
    expect(job.result.field_check.crops[0]).toMatchObject({ crop: 'beans', right: { worse: 0, better: 0 } });
    expect(job.result.field_check.crops[0].outcome).not.toBe('not_worse');
    expect(job.result.reason).toMatch(/^not activated on its own: .* an administrator may activate it/);
    const version = job.candidate_version;
    expect(t.deps.classifier.current().version).not.toBe(version);
    // The figures are in front of an administrator, who alone may activate it, and only by confirming them.
    const admin = await createUser(t, 'admin');
    const set = (await get(trainingApi.fieldSet, admin)).json();
    expect(set.last_check).toMatchObject({ version, accepted: false, is_active: false });
    const url = trainingApi.activateVersion.replace(':id', String(set.last_check.id));
    const activate = (by: TestUser, payload?: object) =>
      t.app.inject({ method: 'POST', url, headers: by.headers, ...(payload ? { payload } : {}) });
    const byExpert = await activate(expert);
    expect(byExpert.statusCode, byExpert.body).toBe(403);
    const unconfirmed = await activate(admin, {});
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().error.message).toMatch(/field figures/);
    expect((await activate(admin, { confirm_field_figures: true })).statusCode).toBe(200);
    const audit = await t.deps.database.db.select().from(modelActivations);
    expect(audit).toEqual([
      expect.objectContaining({ versionId: set.last_check.id, activatedBy: admin.id, override: true }),
    ]);
    expect(audit[0].fieldCheck).toMatchObject({ margin: 0.01, crops: [expect.objectContaining({ crop: 'beans' })] });
    expect(t.deps.classifier.current().version).toBe(version);
    const info = (await get(offlineModelApi.info, held[0])).json();
    expect(info).toMatchObject({ version, quantised: false });
    const file = await get(info.file_url, held[0]);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(fs.readFileSync(path.join(t.dataDir, 'models', version, 'model.onnx')))).toBe(true);
    const rows = await t.deps.database.db.select().from(trainingSamples).where(eq(trainingSamples.heldOut, true));
    expect(rows).toHaveLength(9);
  }, 120_000);
});
