/**
 * One real retraining through the API, as an expert would start it, with the product's defaults
 * (base data TRAINING_BASE_DIR or datasets/rust3, the package's evaluation set,
 * TRAINING_EPOCHS or 6 epochs from the committed model's weights) and a few expert samples: 5 photos
 * per class from the base folder that are not in the evaluation set, plus the 12 leaf photos committed
 * as vision fixtures (copies of evaluation images, so the job must leave them out).
 * Prints the job's time, both models' numbers on the evaluation set and the decision.
 *
 *   nice -n 10 node bench/retraining.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { defaultModelDir, listLabelledImages, loadEvalSet } from '@kutu/vision';
import { loadConfig } from '../apps/server/src/config.ts';
import { createTestApp } from '../apps/server/test/support/app.ts';
import { createUser } from '../apps/server/test/support/users.ts';
import { registerCommittedModel } from '../apps/server/src/modules/training/model-versions.ts';
import { multipart } from '../apps/server/test/support/training.ts';

const fixtures = path.resolve(import.meta.dirname, '../packages/vision/test/fixtures/leaves');
const env: Record<string, string> = { RETRAIN_AFTER_SAMPLES: '0' };
for (const key of ['TRAINING_BASE_DIR', 'TRAINING_EVAL_SET', 'TRAINING_EPOCHS']) {
  if (process.env[key]) env[key] = process.env[key]!;
}

const t = await createTestApp({ workJobs: true, env });
try {
  const expert = await createUser(t, 'expert');
  await registerCommittedModel(t.deps.database.db, defaultModelDir());
  const baseDir = loadConfig(env).training.baseDir;
  const evalFiles = new Set(loadEvalSet(baseDir).map((i) => i.file));
  const perClass: Record<string, number> = {};
  const fromBase = listLabelledImages(baseDir)
    .filter((i) => !evalFiles.has(i.file))
    .reverse()
    .filter((i) => {
      perClass[i.label] = (perClass[i.label] ?? 0) + 1;
      return perClass[i.label] <= 5;
    });
  for (const item of [...fromBase, ...listLabelledImages(fixtures)]) {
    const body = await multipart([{ name: path.basename(item.file), data: fs.readFileSync(item.file) }], {
      label: item.label,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload-training-images/',
      headers: { ...expert.headers, ...body.headers },
      payload: body.payload,
    });
    if (res.statusCode !== 201) throw new Error(res.body);
  }
  const started = Date.now();
  const res = await t.app.inject({ method: 'POST', url: '/api/model-training/jobs/', headers: expert.headers });
  if (res.statusCode !== 202) throw new Error(res.body);
  const id = res.json().id as number;
  let last = '';
  for (;;) {
    const job = (await t.app.inject({ url: `/api/model-training/jobs/${id}/`, headers: expert.headers })).json();
    const state = `${job.status} ${job.stage ?? ''} ${job.epoch ?? ''}/${job.epochs ?? ''}`;
    if (state !== last) {
      console.log(`${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s  ${state}`);
      last = state;
    }
    if (['succeeded', 'rejected', 'failed'].includes(job.status)) {
      const seconds = (Date.now() - started) / 1000;
      const pick = (m: { accuracy: number; macro_f1: number; unsure_rate?: number } | null) =>
        m && { accuracy: m.accuracy, macro_f1: m.macro_f1, unsure_rate: m.unsure_rate };
      console.log(
        JSON.stringify(
          {
            status: job.status,
            error: job.error,
            wall_clock_seconds: Math.round(seconds),
            expert_samples_used: job.sample_count,
            epochs: job.epochs,
            candidate: pick(job.result?.candidate ?? null),
            active: pick(job.result?.active ?? null),
            active_version: job.result?.active_version,
            reason: job.result?.reason,
            eval_set: job.result?.eval_set,
          },
          null,
          2,
        ),
      );
      break;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
} finally {
  await t.close();
}
