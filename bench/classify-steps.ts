/**
 * Where classify()'s CPU time goes, step by step, beside sharp's decode + resize (npm run bench:classify-steps).
 *
 * The path of `loadClassifier().classify()` (packages/vision/src/classifier.ts), its steps called one by one on
 * the same 12 MP photo as bench/analysis.ts, with the server's test app imported (its heap, as production's):
 * the decode (one sharp instance: upright size, then the model's input), the tensor, the rust reading, the
 * network (`session.run`, the served options), the answer with its heat grid, and the heatmap PNG. Each turn
 * runs sharp alone first, then the steps; each figure is the median CPU time (the process's, all threads)
 * of BENCH_RUNS turns (default 40) after 5, with its share of sharp alone. Ends with a non-zero exit code
 * when nothing was timed (`measured.ts`).
 */
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { defaultModelDir, loadClassifier } from '@kutu/vision';
import '../apps/server/test/support/app.ts';
import { bigLeafJpeg } from '../apps/server/test/support/photos.ts';
import { heatFor, outputsFor } from '../packages/vision/src/browser.ts';
import { cardSettings } from '../packages/vision/src/card-settings.ts';
import { colourStats, decide, softmax } from '../packages/vision/src/decide.ts';
import { heatmapPng } from '../packages/vision/src/heatmap.ts';
import { decodeUpright, toTensorData } from '../packages/vision/src/preprocess.ts';
import { rustReading } from '../packages/vision/src/spots.ts';
import { atLeast, ensure, percentile } from './measured.ts';

const RUNS = atLeast(Number(process.env.BENCH_RUNS ?? 40), 1, 'timed runs (BENCH_RUNS)');
const WARMUP = 5;
const jpeg = await bigLeafJpeg(4000, 3000, 92);
const model = await loadClassifier(defaultModelDir());
const size = model.card.input_size ?? 160;
const { thresholds, answer } = cardSettings(model.card);
// The served session's options (classifier.ts).
const session = await ort.InferenceSession.create(path.join(defaultModelDir(), 'model.onnx'), {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all',
});
const input = new Float32Array(3 * size * size);
const cpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const steps = new Map<string, number[]>();
const time = async <T>(step: string, run: () => T | Promise<T>): Promise<T> => {
  const start = cpu();
  const out = await run();
  steps.set(step, [...(steps.get(step) ?? []), cpu() - start]);
  return out;
};

for (let turn = 0; turn < WARMUP + RUNS; turn++) {
  if (turn === WARMUP) steps.clear();
  await time('sharp alone: decode + resize', () =>
    sharp(jpeg).resize(size, size, { fit: 'fill' }).removeAlpha().raw().toBuffer(),
  );
  const start = cpu();
  const { rgb, width, height } = await time('decode (size, then input)', () => decodeUpright(jpeg, size));
  const data = await time('tensor', () => toTensorData(rgb, size, input));
  await time('rust reading (leaf mask)', () => rustReading(rgb, size, null, width / height, answer.leafConfidence));
  const output = await time('network (session.run)', () =>
    session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', data, [1, 3, size, size]) }),
  );
  const heat = await time('answer and heat grid', () => {
    const names = outputsFor(session.outputNames, null);
    const core = decide(
      softmax(output[names.logits]!.data as Float32Array),
      colourStats(rgb),
      thresholds,
      'bench',
      null,
    );
    return heatFor(core, output[names.cam]);
  });
  ensure(!!heat, 'a heat grid for the bench photo');
  await time('heatmap PNG', () => heatmapPng(heat, width, height));
  steps.set('whole path', [...(steps.get('whole path') ?? []), cpu() - start]);
}

const sharpAlone = percentile(steps.get('sharp alone: decode + resize')!, 50, 'sharp alone');
console.log(
  `classify() step by step — ${os.cpus()[0]?.model ?? 'unknown'} × ${os.availableParallelism()} (load ${os.loadavg()[0].toFixed(2)}), ` +
    `Node ${process.version}, sharp ${sharp.versions.sharp}; ${RUNS} turns after ${WARMUP}; CPU ms, median`,
);
for (const [step, xs] of steps) {
  const median = percentile(xs, 50, step);
  console.log(
    `${step.padEnd(30)} ${median.toFixed(2).padStart(7)}  ${(median / sharpAlone).toFixed(3).padStart(6)} × sharp alone`,
  );
}
await model.close();
await session.release();
