import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { defaultModelDir, listLabelledImages } from '@kutu/vision';
import { modelVersions, notifications } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser, type TestUser } from '../../../test/users.ts';
import { registerCommittedModel } from './model-versions.ts';
import { createVisionTrainer, type Trainer, type TrainRequest } from './trainer.ts';
import { multipart, TRAINER_SCRIPT } from './test-support.ts';

/**
 * Retraining with the real trainer (PyTorch, ONNX export, evaluation as served) on the 12 leaf photos
 * committed as vision fixtures: half of them are the evaluation set, the other half the base data.
 * One epoch of a tiny configuration takes a few seconds.
 */
const LEAVES = path.resolve(import.meta.dirname, '../../../../../packages/vision/test/fixtures/leaves');
const TINY = ['--synthetic', '8', '--nonleaf-repeats', '1', '--batch', '16'];
// For the tests that interrupt a run: thousands of synthetic images make an epoch last long enough
// to be caught mid-run on any machine (the run is killed or stopped, never finished).
const LONG = ['--synthetic', '6000', '--nonleaf-repeats', '1', '--batch', '16'];
const UPLOAD = '/api/upload-training-images/';
const SAMPLES = '/api/training-samples/';
const JOBS = '/api/model-training/jobs/';
const VERSIONS = '/api/model-versions/';
const DETECT = '/api/rust-detection/';

const leaves = listLabelledImages(LEAVES);
const evalItems = leaves.filter((_, i) => i % 2 === 0);
const trainItems = leaves.filter((_, i) => i % 2 === 1);
const wrongLabel = { common_rust: 'healthy', healthy: 'other_disease', other_disease: 'common_rust' } as const;

type Job = { id: number; status: string; stage: string | null; epoch: number | null; epochs: number | null };

describe('retraining with the real trainer', () => {
  let t: TestContext;
  let expert: TestUser;
  let farmer: TestUser;
  let tmp: string;
  let baseVersion: string;

  const tiny = createVisionTrainer({ threads: 1, extraTrainerArgs: TINY });
  const long = createVisionTrainer({ threads: 1, extraTrainerArgs: LONG });
  let runLong = false;
  const requests: TrainRequest[] = [];
  const trainer: Trainer = {
    ...tiny,
    train: (req) => {
      requests.push(req);
      return (runLong ? long : tiny).train(req);
    },
  };

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-retrain-'));
    const evalFile = path.join(tmp, 'eval.json');
    fs.writeFileSync(
      evalFile,
      JSON.stringify({ items: evalItems.map((i) => ({ file: path.relative(LEAVES, i.file), label: i.label })) }),
    );
    t = await createTestApp({
      workJobs: true,
      env: {
        RETRAIN_AFTER_SAMPLES: '0',
        TRAINING_BASE_DIR: LEAVES,
        TRAINING_EVAL_SET: evalFile,
        TRAINING_EPOCHS: '1',
      },
      training: { trainer },
    });
    expert = await createUser(t, 'expert');
    farmer = await createUser(t, 'farmer');
    // What main.ts does at startup: the committed model becomes the first, active version.
    expect(await registerCommittedModel(t.deps.database.db, defaultModelDir())).toBe(true);
    expect(await registerCommittedModel(t.deps.database.db, defaultModelDir())).toBe(false);
    baseVersion = t.deps.classifier.current().version;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const get = async <T>(url: string): Promise<T> => (await t.app.inject({ url, headers: expert.headers })).json();
  const versionRow = async (version: string) =>
    (await t.deps.database.db.select().from(modelVersions).where(eq(modelVersions.version, version)))[0];

  async function upload(files: string[], label: string, crop?: 'MAIZE' | 'BEANS') {
    const body = await multipart(
      files.map((f) => ({ name: path.basename(f), data: fs.readFileSync(f) })),
      crop ? { label, crop_type: crop } : { label },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: UPLOAD,
      headers: { ...expert.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().samples as { id: number }[];
  }

  async function startJob(): Promise<Job> {
    const res = await t.app.inject({ method: 'POST', url: JOBS, headers: expert.headers });
    expect(res.statusCode, res.body).toBe(202);
    return res.json();
  }

  /** Polls a job until `done` says so, recording every state it was seen in. */
  async function watch(id: number, done: (j: Job) => boolean, timeoutMs = 60_000) {
    const seen: Job[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await get<Job>(`${JOBS}${id}/`);
      const prev = seen.at(-1);
      if (!prev || prev.status !== job.status || prev.stage !== job.stage || prev.epoch !== job.epoch) seen.push(job);
      if (done(job)) return { job, seen };
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}/${job.stage}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const finished = (j: Job) => ['succeeded', 'rejected', 'failed'].includes(j.status);

  async function analyse(): Promise<{ model_version: string }> {
    const leaf = trainItems[0].file;
    const body = await multipart([{ name: 'leaf.jpg', data: fs.readFileSync(leaf) }]);
    const res = await t.app.inject({
      method: 'POST',
      url: DETECT,
      headers: { ...farmer.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  /** Nothing unfinished is left among the model versions. */
  function unfinishedDirs(): string[] {
    const root = path.join(t.dataDir, 'models');
    return fs.existsSync(root)
      ? fs.readdirSync(root).filter((n) => n.startsWith('.tmp-') || n.includes('.partial-'))
      : [];
  }

  async function notesFor(jobId: number) {
    const rows = await t.deps.database.db.select().from(notifications).where(eq(notifications.userId, expert.id));
    return rows.filter((n) => n.type === 'training_completed' && (n.data as { job_id?: number }).job_id === jobId);
  }

  it('runs a job end to end: queued, running with stage and epoch, finished with its decision; a worse candidate is not activated', async () => {
    const base = await versionRow(baseVersion);
    expect(base).toMatchObject({ isActive: true, path: defaultModelDir() });
    expect(base.metrics).toMatchObject({ images: 318, accuracy: expect.any(Number), macro_f1: expect.any(Number) });

    // Deliberately mislabelled expert samples, three of each so the wrong labels outweigh the base data's
    // right ones within one epoch, plus one copy of an evaluation image (never trained on).
    // The first copies say which crop they show: the trainer is told, so a model with a head per crop
    // trains that head on them too (the others say none).
    const WRONG_COPIES = 3;
    for (let copy = 0; copy < WRONG_COPIES; copy++) {
      for (const item of trainItems) {
        await upload([item.file], wrongLabel[item.label as keyof typeof wrongLabel], copy === 0 ? 'BEANS' : undefined);
      }
    }
    await upload([evalItems[0].file], evalItems[0].label);

    const queued = await startJob();
    expect(queued.status).toBe('queued');
    const { job, seen } = await watch(queued.id, finished);

    const states = seen.map((j) => `${j.status}/${j.stage}/${j.epoch}/${j.epochs}`);
    expect(states).toContain('running/training/0/1');
    expect(states).toContain('running/evaluating/1/1');
    expect(states.at(-1)).toBe('rejected/rejected/1/1');
    // The committed model gets every evaluation photo right; a candidate fine-tuned on wrong labels does not.
    expect(job.status).toBe('rejected');
    const full = await get<{
      sample_count: number;
      candidate_version: string;
      result: Record<string, { accuracy: number; macro_f1: number }> & {
        accepted: boolean;
        rule: string;
        reason: string;
      };
    }>(`${JOBS}${job.id}/`);
    expect(full.sample_count).toBe(WRONG_COPIES * trainItems.length);
    const sent = requests.at(-1)!.extraSamples;
    expect(sent).toHaveLength(WRONG_COPIES * trainItems.length);
    expect(sent.filter((s) => s.crop === 'BEANS')).toHaveLength(trainItems.length);
    expect(sent.filter((s) => !s.crop)).toHaveLength((WRONG_COPIES - 1) * trainItems.length);
    expect(full.result.accepted).toBe(false);
    expect(full.result.active.accuracy).toBe(1);
    expect(full.result.candidate.accuracy).toBeLessThan(1);

    const row = await versionRow(full.candidate_version);
    expect(row).toMatchObject({
      isActive: false,
      sampleCount: WRONG_COPIES * trainItems.length,
      jobId: job.id,
      trainedBy: expert.id,
    });
    // Half of the evaluation photos are iBean field photos (named ibean__…): the gate compares them too.
    expect(full.result).toMatchObject({
      rule: expect.stringMatching(/macro-F1.*field photos/),
      reason: expect.stringMatching(/^worse: macro-F1 .*, field photos /),
    });
    // Stored as keys and values, for each expert to read in their language.
    expect(row.decision).toMatchObject({
      accepted: false,
      rule: { key: 'training.rule.notWorse', params: { field: { key: 'training.rule.field' } } },
      reason: { key: 'training.verdict.worse', params: { numbers: { key: 'training.verdict.numbers' } } },
      candidate: { images: evalItems.length, accuracy: expect.any(Number), macro_f1: expect.any(Number) },
      active: { images: evalItems.length, accuracy: 1, macro_f1: 1 },
      active_version: baseVersion,
      eval_set: 'eval.json (6 images)',
    });
    // The candidate's files are kept complete under its version; it knows where it came from.
    const card = JSON.parse(fs.readFileSync(path.join(row.path, 'model.json'), 'utf8'));
    expect(card).toMatchObject({ version: full.candidate_version, retraining: { job_id: job.id } });
    expect(card.training.fine_tuned_from).toBe(path.basename(defaultModelDir()));
    expect(unfinishedDirs()).toEqual([]);

    expect(t.deps.classifier.current().version).toBe(baseVersion);
    expect((await analyse()).model_version).toBe(baseVersion);

    const [note] = await notesFor(job.id);
    expect(note.message).toMatch(/was not activated/);
    expect(note.data).toMatchObject({
      outcome: 'rejected',
      version: full.candidate_version,
      candidate: { accuracy: full.result.candidate.accuracy },
      active: { accuracy: 1 },
    });
  }, 90_000);

  it('activates a better candidate, swaps the classifier and tells the expert; rollback swaps it back', async () => {
    // An over-cautious active model: the committed weights, but every answer marked unsure (scores 0).
    const cautiousDir = path.join(tmp, 'cautious');
    fs.cpSync(defaultModelDir(), cautiousDir, { recursive: true });
    const card = JSON.parse(fs.readFileSync(path.join(cautiousDir, 'model.json'), 'utf8'));
    card.version = 'cautious-test';
    card.thresholds = { ...card.thresholds, unsureBelow: 1.01 };
    fs.writeFileSync(path.join(cautiousDir, 'model.json'), JSON.stringify(card));
    const [cautious] = await t.deps.database.db
      .insert(modelVersions)
      .values({ version: 'cautious-test', path: cautiousDir })
      .returning();
    const activated = await t.app.inject({
      method: 'POST',
      url: `${VERSIONS}${cautious.id}/activate/`,
      headers: expert.headers,
    });
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json()).toMatchObject({ version: 'cautious-test', is_active: true });
    expect(t.deps.classifier.current().version).toBe('cautious-test');
    expect((await analyse()).model_version).toBe('cautious-test');

    // The expert corrects the labels.
    const samples = (await get<{ results: { id: number; label: string }[] }>(`${SAMPLES}?page_size=50`)).results;
    for (const s of samples) {
      const right = Object.entries(wrongLabel).find(([, wrong]) => wrong === s.label)?.[0];
      if (!right) continue;
      const res = await t.app.inject({
        method: 'PATCH',
        url: `${SAMPLES}${s.id}/`,
        headers: expert.headers,
        payload: { label: right },
      });
      expect(res.statusCode).toBe(200);
    }

    const { job } = await watch((await startJob()).id, finished);
    expect(job.status).toBe('succeeded');
    const full = await get<{
      candidate_version: string;
      result: Record<string, { accuracy: number; macro_f1: number }> & { accepted: boolean };
    }>(`${JOBS}${job.id}/`);
    expect(full.result).toMatchObject({ accepted: true, active_version: 'cautious-test', active: { accuracy: 0 } });
    expect(full.result.candidate.accuracy).toBeGreaterThan(0);
    const candidate = full.candidate_version;

    expect(t.deps.classifier.current().version).toBe(candidate);
    expect((await analyse()).model_version).toBe(candidate);
    const versions = (await get<{ results: { id: number; version: string; is_active: boolean }[] }>(VERSIONS)).results;
    expect(versions.filter((v) => v.is_active).map((v) => v.version)).toEqual([candidate]);

    const [note] = await notesFor(job.id);
    expect(note.message).toMatch(/is now active/);
    expect(note.data).toMatchObject({ outcome: 'succeeded', version: candidate, active: { accuracy: 0 } });

    // Rollback to the committed model.
    const base = versions.find((v) => v.version === baseVersion)!;
    const back = await t.app.inject({
      method: 'POST',
      url: `${VERSIONS}${base.id}/activate/`,
      headers: expert.headers,
    });
    expect(back.statusCode).toBe(200);
    expect(t.deps.classifier.current().version).toBe(baseVersion);
    expect((await analyse()).model_version).toBe(baseVersion);
    expect((await versionRow(candidate)).isActive).toBe(false);
  }, 90_000);

  it('a trainer killed mid-run fails the job, leaves nothing half-written and the active model serving', async () => {
    runLong = true;
    const before = t.deps.classifier.current().version;
    const { id } = await startJob();
    await watch(id, (j) => j.stage === 'training' || finished(j));
    // Kill this app's training process from outside, as the OOM killer would.
    let line: string | undefined;
    for (let tries = 0; !line && tries < 100; tries++) {
      const ps = execFileSync('ps', ['-ww', '-eo', 'pid=,args=']).toString();
      line = ps.split('\n').find((l) => TRAINER_SCRIPT.test(l) && l.includes(path.join(t.dataDir, 'models')));
      if (!line) await new Promise((r) => setTimeout(r, 100));
    }
    expect(line).toBeDefined();
    process.kill(Number(line!.trim().split(/\s+/)[0]), 'SIGKILL');

    const { job } = await watch(id, finished);
    expect(job.status).toBe('failed');
    expect((await get<{ error: string }>(`${JOBS}${id}/`)).error).toMatch(/trainer exited with SIGKILL/);
    expect(unfinishedDirs()).toEqual([]);
    expect(t.deps.classifier.current().version).toBe(before);
    expect((await analyse()).model_version).toBe(before);
    const [note] = await notesFor(id);
    expect(note.data).toMatchObject({ outcome: 'failed' });
  }, 90_000);

  // Last: stopping the worker ends this app's job queue.
  it('a server stopping mid-run aborts the trainer and records the job as failed', async () => {
    runLong = true;
    const before = t.deps.classifier.current().version;
    const versionsBefore = (await t.deps.database.db.select().from(modelVersions)).length;
    const { id } = await startJob();
    await watch(id, (j) => j.stage === 'training' || finished(j));
    await t.deps.jobs.stop(10_000);

    const job = await get<Job & { error: string }>(`${JOBS}${id}/`);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/server stopped/);
    expect(unfinishedDirs()).toEqual([]);
    expect(trainerChildren()).toEqual([]);
    expect((await t.deps.database.db.select().from(modelVersions)).length).toBe(versionsBefore);
    expect(t.deps.classifier.current().version).toBe(before);
    expect((await analyse()).model_version).toBe(before);
  }, 90_000);
});

/** Training processes started by this test process. */
function trainerChildren(): string[] {
  const ps = execFileSync('ps', ['-ww', '-eo', 'ppid=,args=']).toString();
  return ps.split('\n').filter((l) => l.trim().startsWith(`${process.pid} `) && TRAINER_SCRIPT.test(l));
}
