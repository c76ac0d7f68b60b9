/**
 * Retraining's head refit on the repository's base set (datasets/rust3 outside the evaluation set), in
 * Node (decision 0029) and with the earlier Python trainer (trainer/train_head.py, where python3 with
 * torch is installed), on the same features of the served backbone and the same evaluation set. Prints
 * each stage's wall-clock and CPU seconds (this process and its waited-for children, from /proc: on a
 * shared machine the wall clock says more about the neighbours), both candidates' numbers on the
 * evaluation set and how often they give the same answer.
 *
 *   node bench/retrain-head.ts [--cache DIR] [--threads 2] [--skip-python]
 *
 * --cache keeps the features between runs (computed when missing: the stage every retraining pays).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { listImagesRecursive, listLabelledImages, nonLeafDir } from '../packages/vision/src/dataset.ts';
import { pythonModule } from '../packages/vision/src/python.ts';
import { evaluateModel, type EvalReport } from '../packages/vision/src/evaluate.ts';
import { writeFeatures } from '../packages/vision/src/features.ts';
import {
  defaultDatasetDir,
  defaultModelDir,
  type Diagnosis,
  loadClassifier,
  loadEvalSet,
} from '../packages/vision/src/index.ts';
import { readOnnxHead, withFeatureOutput, withOnnxHead } from '../packages/vision/src/onnx-edit.ts';
import { fitHeadInWorker } from '../packages/vision/src/refit.ts';

const { values } = parseArgs({
  options: {
    cache: { type: 'string' },
    threads: { type: 'string', default: '2' },
    'skip-python': { type: 'boolean', default: false },
  },
});
const threads = Number(values.threads);
const served = defaultModelDir();
const card = JSON.parse(fs.readFileSync(path.join(served, 'model.json'), 'utf8'));
const size: number = card.input_size;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-bench-retrain-'));
const cache = values.cache ? path.resolve(values.cache) : path.join(work, 'cache');
fs.mkdirSync(cache, { recursive: true });

function cpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // utime, stime, cutime, cstime: fields 14–17 of the line (11–14 after the command name).
  return fields.slice(11, 15).reduce((sum, v) => sum + Number(v), 0) / 100;
}
async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const [wall, cpu] = [Date.now(), cpuSeconds()];
  const out = await fn();
  console.log(
    JSON.stringify({
      stage: name,
      wall_seconds: Math.round((Date.now() - wall) / 100) / 10,
      cpu_seconds: Math.round((cpuSeconds() - cpu) * 10) / 10,
    }),
  );
  return out;
}
const pick = (m: EvalReport) => ({
  accuracy: m.accuracy,
  macro_f1: m.macro_f1,
  unsure_rate: m.unsure_rate,
  accuracy_by_setting: m.accuracy_by_setting,
  coverage_by_setting: m.coverage_by_setting,
  confident_wrong_by_setting: m.confident_wrong_by_setting,
});

try {
  const evalItems = loadEvalSet(defaultDatasetDir);
  const evalFiles = new Set(evalItems.map((i) => path.resolve(i.file)));
  const train = listLabelledImages(defaultDatasetDir).filter((i) => !evalFiles.has(path.resolve(i.file)));
  const featuresOnnx = path.join(work, 'features.onnx');
  fs.writeFileSync(featuresOnnx, withFeatureOutput(fs.readFileSync(path.join(served, 'model.onnx'))));
  if (!fs.existsSync(path.join(cache, 'nonleaf.json'))) {
    const negatives = listImagesRecursive(nonLeafDir).map((file) => ({ file, label: 'not_leaf' }));
    await timed(`features of ${negatives.length} negatives × 5 views (once per backbone)`, () =>
      writeFeatures(cache, 'nonleaf', negatives, ['orig', 'hflip', 'crop1', 'crop2', 'crop3'], featuresOnnx, {
        threads,
        size,
      }),
    );
  }
  if (!fs.existsSync(path.join(cache, 'train.json'))) {
    await timed(`features of ${train.length} training photos × 2 views`, () =>
      writeFeatures(cache, 'train', train, ['orig', 'hflip'], featuresOnnx, { threads, size }),
    );
  }

  const nodeDir = path.join(work, 'node');
  fs.mkdirSync(nodeDir);
  const servedOnnx = fs.readFileSync(path.join(served, 'model.onnx'));
  const init = readOnnxHead(servedOnnx);
  const fit = await timed('head refit in Node (L-BFGS + ood statistics, worker thread)', () =>
    fitHeadInWorker({ cache, init }, () => {}),
  );
  fs.writeFileSync(
    path.join(nodeDir, 'model.onnx'),
    withOnnxHead(servedOnnx, { ...fit.head, temperature: init.temperature }),
  );
  fs.writeFileSync(path.join(nodeDir, 'model.json'), JSON.stringify({ ...card, version: 'bench-node' }));
  console.log(
    JSON.stringify({
      node_refit: { iterations: fit.iterations, loss: fit.loss, counts: fit.counts, ood_kept: fit.oodKept },
    }),
  );
  const nodeMetrics = await timed('evaluation of the Node candidate (318 photos)', () =>
    evaluateModel(nodeDir, evalItems),
  );
  console.log(JSON.stringify({ candidate: 'node', ...pick(nodeMetrics) }));

  const python = process.env.KUTU_PYTHON ?? '/usr/bin/python3';
  const hasTorch =
    !values['skip-python'] && spawnSync(python, ['-c', 'import torch, onnx'], { stdio: 'ignore' }).status === 0;
  if (hasTorch) {
    const pyDir = path.join(work, 'python');
    await timed('head refit in Python (trainer/train_head.py: L-BFGS + ood + ONNX export)', async () => {
      const trainHead = pythonModule('trainer.train_head', [
        '--cache',
        cache,
        '--out',
        pyDir,
        '--epochs',
        '1',
        '--init',
        path.join(served, 'weights.pt'),
        '--temperature',
        String(card.temperature ?? 1),
        '--size',
        String(size),
      ]);
      const r = spawnSync(python, trainHead.args, {
        env: {
          ...trainHead.env,
          OMP_NUM_THREADS: String(threads),
          MKL_NUM_THREADS: String(threads),
          KUTU_TRAIN_THREADS: String(threads),
        },
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(r.stderr);
    });
    fs.writeFileSync(path.join(pyDir, 'model.json'), JSON.stringify({ ...card, version: 'bench-python' }));
    const pyMetrics = await timed('evaluation of the Python candidate', () => evaluateModel(pyDir, evalItems));
    console.log(JSON.stringify({ candidate: 'python', ...pick(pyMetrics) }));
    const active = await timed('evaluation of the active model', () => evaluateModel(served, evalItems));
    console.log(JSON.stringify({ candidate: 'active', ...pick(active) }));

    const [a, b] = [await loadClassifier(nodeDir), await loadClassifier(pyDir)];
    const answer = (d: Diagnosis) => (d.outcome === 'not_leaf' ? 'not_leaf' : d.unsure ? 'unsure' : d.rust_class);
    let same = 0;
    let maxDiff = 0;
    for (const item of evalItems) {
      const image = fs.readFileSync(item.file);
      const [x, y] = [await a.classify(image), await b.classify(image)];
      if (answer(x) === answer(y)) same++;
      for (const c of ['common_rust', 'healthy', 'other_disease'] as const)
        maxDiff = Math.max(maxDiff, Math.abs(x.probabilities[c] - y.probabilities[c]));
    }
    console.log(
      JSON.stringify({
        same_answer: `${same}/${evalItems.length}`,
        max_probability_difference: Number(maxDiff.toFixed(4)),
      }),
    );
    await a.close();
    await b.close();
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
