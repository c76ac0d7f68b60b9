import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { analyses, modelVersions, notifications, trainingJobs, trainingSamples } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { message } from '../../i18n/i18n.ts';
import { notWorseRule } from './decision.ts';
import { multipart, rust3Photos } from '../../../test/support/training.ts';
import { trainingApi } from '@kutu/contract';

const UPLOAD = trainingApi.upload;
const SAMPLES = trainingApi.samples;
const COUNTS = trainingApi.counts;
const FROM_ANALYSIS = trainingApi.fromAnalysis;
const JOBS = trainingApi.jobs;
const VERSIONS = trainingApi.versions;

const healthy = rust3Photos('healthy', 4);
const rust = rust3Photos('common_rust', 2);

describe('training samples and jobs API', () => {
  let t: TestContext;
  let expert: TestUser;
  let farmer: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { RETRAIN_AFTER_SAMPLES: '0' } });
    expert = await createUser(t, 'expert');
    farmer = await createUser(t, 'farmer');
  });
  afterAll(() => t.close());

  async function upload(
    files: { name: string; data: Buffer; type?: string }[],
    fields: Record<string, string>,
    who = expert,
  ) {
    const body = await multipart(files, fields);
    return t.app.inject({
      method: 'POST',
      url: UPLOAD,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
  }

  it('refuses anonymous callers (401) and farmers (403) on every route', async () => {
    const routes: [string, string][] = [
      ['POST', UPLOAD],
      ['GET', SAMPLES],
      ['GET', COUNTS],
      ['POST', FROM_ANALYSIS],
      ['PATCH', `${SAMPLES}1/`],
      ['DELETE', `${SAMPLES}1/`],
      ['GET', `${SAMPLES}1/image/`],
      ['POST', JOBS],
      ['GET', JOBS],
      ['GET', `${JOBS}1/`],
      ['GET', VERSIONS],
      ['POST', `${VERSIONS}1/activate/`],
    ];
    for (const [method, url] of routes) {
      const anon = await t.app.inject({ method: method as 'GET', url });
      expect(anon.statusCode, `${method} ${url}`).toBe(401);
      const asFarmer = await t.app.inject({ method: method as 'GET', url, headers: farmer.headers });
      expect(asFarmer.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('checks uploads: image required, label required and valid, real JPEG/PNG only', async () => {
    const noImage = await upload([], { label: 'healthy' });
    expect(noImage.statusCode).toBe(400);
    expect(noImage.json().error.message).toBe('Please upload a valid image for training.');

    const noLabel = await upload([healthy[0]], {});
    expect(noLabel.statusCode).toBe(400);
    expect(noLabel.json().error.message).toBe('Please select a label for training.');

    const badLabel = await upload([healthy[0]], { label: 'rusty' });
    expect(badLabel.statusCode).toBe(400);
    expect(badLabel.json().error.message).toBe('Please select a label for training.');

    const text = await upload([{ name: 'notes.jpg', data: Buffer.from('not an image at all'), type: 'image/jpeg' }], {
      label: 'healthy',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.message).toBe('File type not supported');

    const big = await sharp({ create: { width: 2600, height: 2600, channels: 3, background: '#3a7' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const tooBig = await upload([{ name: 'big.png', data: big }], { label: 'healthy' });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.message).toBe('File too big (max: 5 MB)');

    const many = Array.from({ length: 21 }, (_, i) => ({ name: `h${i}.jpg`, data: healthy[0].data }));
    const tooMany = await upload(many, { label: 'healthy' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe('You can upload at most 20 images at a time');

    const badCrop = await upload([healthy[0]], { label: 'healthy', crop_type: 'CASSAVA' });
    expect(badCrop.statusCode).toBe(400);

    const stored = await t.deps.database.db.select().from(trainingSamples);
    expect(stored).toHaveLength(0);
  });

  it('stores labelled samples (several per request) and counts, lists, relabels and removes them', async () => {
    const before = (await t.app.inject({ url: COUNTS, headers: expert.headers })).json();
    expect(before).toMatchObject({ common_rust: 0, healthy: 0, other_disease: 0, total: 0 });

    const three = await upload(healthy.slice(0, 3), { label: 'healthy', crop_type: 'BEANS' });
    expect(three.statusCode).toBe(201);
    const reply = three.json();
    expect(reply.message).toBe('Training data submitted successfully');
    expect(reply.samples).toHaveLength(3);
    expect(reply.samples[0]).toMatchObject({ label: 'healthy', crop_type: 'BEANS', uploader: { id: expert.id } });
    expect(reply.job_id).toBeNull();

    const one = await upload([rust[0]], { label: 'common_rust' });
    expect(one.statusCode).toBe(201);

    const counts = (await t.app.inject({ url: COUNTS, headers: expert.headers })).json();
    expect(counts).toMatchObject({ common_rust: 1, healthy: 3, other_disease: 0, total: 4, new_since_last_job: 4 });

    // The stored image is the uploaded one, served to experts.
    const img = await t.app.inject({ url: reply.samples[0].image_url, headers: expert.headers });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect(img.rawPayload.equals(healthy[0].data)).toBe(true);

    const page1 = (await t.app.inject({ url: `${SAMPLES}?page=1&page_size=2`, headers: expert.headers })).json();
    expect(page1).toMatchObject({ count: 4, next: 2, previous: null });
    expect(page1.results).toHaveLength(2);
    const page2 = (await t.app.inject({ url: `${SAMPLES}?page=2&page_size=2`, headers: expert.headers })).json();
    expect(page2.results.map((s: { id: number }) => s.id)).not.toContain(page1.results[0].id);
    const onlyRust = (await t.app.inject({ url: `${SAMPLES}?label=common_rust`, headers: expert.headers })).json();
    expect(onlyRust.count).toBe(1);
    const badFilter = await t.app.inject({ url: `${SAMPLES}?label=rusty`, headers: expert.headers });
    expect(badFilter.statusCode).toBe(400);

    const id = reply.samples[0].id;
    const relabel = await t.app.inject({
      method: 'PATCH',
      url: `${SAMPLES}${id}/`,
      headers: expert.headers,
      payload: { label: 'other_disease' },
    });
    expect(relabel.statusCode).toBe(200);
    expect(relabel.json().label).toBe('other_disease');
    const badRelabel = await t.app.inject({
      method: 'PATCH',
      url: `${SAMPLES}${id}/`,
      headers: expert.headers,
      payload: { label: 'nope' },
    });
    expect(badRelabel.statusCode).toBe(400);
    expect(badRelabel.json().error.message).toBe('Please select a label for training.');

    const del = await t.app.inject({ method: 'DELETE', url: `${SAMPLES}${id}/`, headers: expert.headers });
    expect(del.statusCode).toBe(204);
    const again = await t.app.inject({ method: 'DELETE', url: `${SAMPLES}${id}/`, headers: expert.headers });
    expect(again.statusCode).toBe(404);
    const gone = await t.app.inject({
      method: 'PATCH',
      url: `${SAMPLES}${id}/`,
      headers: expert.headers,
      payload: { label: 'healthy' },
    });
    expect(gone.statusCode).toBe(404);
    const after = (await t.app.inject({ url: COUNTS, headers: expert.headers })).json();
    expect(after).toMatchObject({ common_rust: 1, healthy: 2, other_disease: 0, total: 3 });
    const badId = await t.app.inject({ method: 'DELETE', url: `${SAMPLES}abc/`, headers: expert.headers });
    expect(badId.statusCode).toBe(400);
  });

  it("turns a farmer's analysis into a labelled sample with a copy of its image", async () => {
    const key = await t.deps.storage.put('analyses', rust[1].data, 'jpg');
    const [analysis] = await t.deps.database.db
      .insert(analyses)
      .values({
        userId: farmer.id,
        imagePath: key,
        outcome: 'diagnosis',
        rustClass: 'healthy',
        confidence: 0.7,
        probabilities: { common_rust: 0.2, healthy: 0.7, other_disease: 0.1 },
        modelVersion: 'test',
      })
      .returning();
    const res = await t.app.inject({
      method: 'POST',
      url: FROM_ANALYSIS,
      headers: expert.headers,
      payload: { analysis_id: analysis.id, label: 'common_rust' },
    });
    expect(res.statusCode).toBe(201);
    const sample = res.json().samples[0];
    expect(sample).toMatchObject({ label: 'common_rust', source_analysis_id: analysis.id });
    const [row] = await t.deps.database.db.select().from(trainingSamples).where(eq(trainingSamples.id, sample.id));
    expect(row.imagePath).not.toBe(key);
    expect((await t.deps.storage.get(row.imagePath)).equals(rust[1].data)).toBe(true);

    const twice = await t.app.inject({
      method: 'POST',
      url: FROM_ANALYSIS,
      headers: expert.headers,
      payload: { analysis_id: analysis.id, label: 'common_rust' },
    });
    expect(twice.statusCode).toBe(409);
    const missing = await t.app.inject({
      method: 'POST',
      url: FROM_ANALYSIS,
      headers: expert.headers,
      payload: { analysis_id: 999999, label: 'healthy' },
    });
    expect(missing.statusCode).toBe(404);
    const noLabel = await t.app.inject({
      method: 'POST',
      url: FROM_ANALYSIS,
      headers: expert.headers,
      payload: { analysis_id: analysis.id },
    });
    expect(noLabel.statusCode).toBe(400);
    expect(noLabel.json().error.message).toBe('Please select a label for training.');
  });

  it('queues one retraining at a time (202, then 409) and shows it', async () => {
    const none = await t.app.inject({ method: 'POST', url: JOBS, headers: expert.headers });
    expect(none.statusCode).toBe(503);

    await t.deps.database.db
      .insert(modelVersions)
      .values({ version: 'base-test', path: '/nonexistent', isActive: true, metrics: { accuracy: 0.9 } });
    const started = await t.app.inject({ method: 'POST', url: JOBS, headers: expert.headers });
    expect(started.statusCode).toBe(202);
    const job = started.json();
    expect(job).toMatchObject({ status: 'queued', trigger: 'manual', started_by: { id: expert.id } });

    const second = await t.app.inject({ method: 'POST', url: JOBS, headers: expert.headers });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toBe('A retraining is already running');

    const list = (await t.app.inject({ url: `${JOBS}?page=1&page_size=5`, headers: expert.headers })).json();
    expect(list.count).toBe(1);
    expect(list.results[0].id).toBe(job.id);
    const one = await t.app.inject({ url: `${JOBS}${job.id}/`, headers: expert.headers });
    expect(one.json().status).toBe('queued');
    expect((await t.app.inject({ url: `${JOBS}999/`, headers: expert.headers })).statusCode).toBe(404);

    // The queue holds it for a worker (this app does not work jobs).
    const [row] = await t.deps.database.db.select().from(trainingJobs).where(eq(trainingJobs.id, job.id));
    expect(row.queueJobId).toBeTruthy();
    const queued = await t.deps.database.execute('select state from pgboss.job where id = $1', [row.queueJobId]);
    expect(queued.rows[0]?.state).toBe('created');

    const versions = (await t.app.inject({ url: VERSIONS, headers: expert.headers })).json();
    expect(versions.results[0]).toMatchObject({ version: 'base-test', is_active: true });
    const missingVersion = await t.app.inject({
      method: 'POST',
      url: `${VERSIONS}999/activate/`,
      headers: expert.headers,
    });
    expect(missingVersion.statusCode).toBe(404);
  });

  it("answers an expert in their account's language, whatever the browser asks", async () => {
    const swahili = await createUser(t, 'expert', { language: 'sw' });
    const body = await multipart([rust[0]], { label: 'common_rust' });
    const res = await t.app.inject({
      method: 'POST',
      url: UPLOAD,
      headers: { ...swahili.headers, ...body.headers, 'accept-language': 'en' },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Data ya kufunza imetumwa');
  });
});

describe('automatic retraining and recovery', () => {
  it('starts a retraining by itself once enough new samples arrived', async () => {
    const t = await createTestApp({ env: { RETRAIN_AFTER_SAMPLES: '3' } });
    try {
      const expert = await createUser(t, 'expert');
      await t.deps.database.db.insert(modelVersions).values({ version: 'base', path: '/nonexistent', isActive: true });
      const first = await multipart(healthy.slice(0, 2), { label: 'healthy' });
      const r1 = await t.app.inject({
        method: 'POST',
        url: UPLOAD,
        headers: { ...expert.headers, ...first.headers },
        payload: first.payload,
      });
      expect(r1.json().job_id).toBeNull();
      const second = await multipart([rust[0]], { label: 'common_rust' });
      const r2 = await t.app.inject({
        method: 'POST',
        url: UPLOAD,
        headers: { ...expert.headers, ...second.headers },
        payload: second.payload,
      });
      const jobId = r2.json().job_id;
      expect(jobId).toEqual(expect.any(Number));
      const job = (await t.app.inject({ url: `${JOBS}${jobId}/`, headers: expert.headers })).json();
      expect(job).toMatchObject({ trigger: 'auto', status: 'queued', started_by: { id: expert.id } });
      const counts = (await t.app.inject({ url: COUNTS, headers: expert.headers })).json();
      expect(counts.retrain_after).toBe(3);
    } finally {
      await t.close();
    }
  });

  it('marks a job left running by a dead process as failed when the worker starts, and tells its expert', async () => {
    const t = await createTestApp();
    try {
      const expert = await createUser(t, 'expert');
      const [job] = await t.deps.database.db
        .insert(trainingJobs)
        .values({
          startedBy: expert.id,
          trigger: 'manual',
          status: 'running',
          stage: 'training',
          epoch: 2,
          epochs: 5,
          candidateVersion: 'v-dead',
          startedAt: new Date(Date.now() - 120_000),
          heartbeatAt: new Date(Date.now() - 90_000),
        })
        .returning();
      // What the dead process left: the trainer's partial directory and the job's unfinished one.
      const models = path.join(t.dataDir, 'models');
      for (const dir of ['.tmp-v-dead', '.tmp-v-dead.partial-4242', 'v-kept']) {
        fs.mkdirSync(path.join(models, dir), { recursive: true });
      }
      await t.deps.jobs.startWorkers();
      expect(fs.readdirSync(models)).toEqual(['v-kept']);
      const after = (await t.app.inject({ url: `${JOBS}${job.id}/`, headers: expert.headers })).json();
      expect(after.status).toBe('failed');
      expect(after.error).toBe(
        'The server stopped while this retraining was running; the active model was not changed',
      );
      const swahili = await createUser(t, 'expert', { language: 'sw' });
      const read = (await t.app.inject({ url: `${JOBS}${job.id}/`, headers: swahili.headers })).json();
      expect(read.error).toBe('Seva ilisimama kufunza upya kukiendelea; modeli inayotumika haikubadilishwa');
      const notes = await t.deps.database.db.select().from(notifications).where(eq(notifications.userId, expert.id));
      expect(notes.map((n) => n.type)).toContain('training_completed');
      expect(notes[0].message).toMatch(/failed/);
      // A new retraining can start again.
      const [{ n }] = (
        await t.deps.database.execute(
          "select count(*)::int as n from training_jobs where status in ('queued','running')",
        )
      ).rows as { n: number }[];
      expect(n).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe("training records in the reader's language", () => {
  it("shows a version's rule and reason and a failed job's error in each expert's language, and older English rows as written", async () => {
    const t = await createTestApp();
    try {
      const swahili = await createUser(t, 'expert', { language: 'sw' });
      const english = await createUser(t, 'expert');
      const candidate = { images: 6, accuracy: 0.5, macro_f1: 0.4 };
      const active = { images: 6, accuracy: 1, macro_f1: 1 };
      // As a retraining stores it: the gate's rule and reason as keys and values.
      const decision = {
        ...notWorseRule(candidate, active),
        candidate,
        active,
        active_version: 'v-base',
        eval_set: 'eval.json (6 images)',
      };
      // As rows written before migration 0014 hold them: English text.
      const oldDecision = { ...decision, rule: 'the old rule', reason: 'worse: the old numbers' };
      const db = t.deps.database.db;
      await db.insert(modelVersions).values([
        { version: 'v-old', path: '/nonexistent', decision: oldDecision },
        { version: 'v-new', path: '/nonexistent', decision },
      ]);
      const [newJob, oldJob] = await db
        .insert(trainingJobs)
        .values([
          {
            trigger: 'manual',
            status: 'failed',
            stage: 'failed',
            result: decision,
            error: message('training.failed.unexpected', { detail: 'trainer exited with code 1' }),
          },
          { trigger: 'manual', status: 'failed', stage: 'failed', error: 'There are no training images' },
        ])
        .returning();

      // The browser asks for English; the account's language decides.
      const get = async (who: TestUser, url: string) =>
        (await t.app.inject({ url, headers: { ...who.headers, 'accept-language': 'en' } })).json();
      const versions = async (who: TestUser) => {
        const page: { results: { version: string; decision: { rule: string; reason: string } }[] } = await get(
          who,
          VERSIONS,
        );
        return Object.fromEntries(page.results.map((v) => [v.version, v.decision]));
      };

      const sw = await versions(swahili);
      expect(sw['v-new'].reason).toBe('mbaya zaidi: macro-F1 40.0% dhidi ya 100.0%, usahihi 50.0% dhidi ya 100.0%');
      expect(sw['v-new'].rule).toBe(
        'macro-F1 ya modeli mpya >= macro-F1 ya modeli inayotumika na usahihi wa modeli mpya >= usahihi wa modeli inayotumika',
      );
      expect(sw['v-old']).toMatchObject({ rule: 'the old rule', reason: 'worse: the old numbers' });
      const en = await versions(english);
      expect(en['v-new'].reason).toBe('worse: macro-F1 40.0% vs 100.0%, accuracy 50.0% vs 100.0%');
      expect(en['v-new'].rule).toBe('candidate macro-F1 >= active macro-F1 and candidate accuracy >= active accuracy');
      expect(en['v-old']).toMatchObject({ rule: 'the old rule', reason: 'worse: the old numbers' });

      // A failure's raw detail (the trainer's own words) is kept behind a translated label.
      const swJob = await get(swahili, `${JOBS}${newJob.id}/`);
      expect(swJob.error).toBe('Hitilafu isiyotarajiwa: trainer exited with code 1');
      expect(swJob.result.reason).toBe(sw['v-new'].reason);
      expect((await get(english, `${JOBS}${newJob.id}/`)).error).toBe('Unexpected error: trainer exited with code 1');
      const swList = await get(swahili, JOBS);
      expect(swList.results.map((j: { id: number; error: string }) => [j.id, j.error])).toEqual(
        expect.arrayContaining([
          [newJob.id, 'Hitilafu isiyotarajiwa: trainer exited with code 1'],
          [oldJob.id, 'There are no training images'],
        ]),
      );
    } finally {
      await t.close();
    }
  });
});
