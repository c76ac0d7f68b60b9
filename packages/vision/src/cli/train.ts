/**
 * npm run model:train -- [--data DIR]... [--epochs N] [--version NAME] [--activate]
 *                        [--extra LIST.json] [--eval-list LIST.json] [--init weights.pt] [--out DIR] [--limit N]
 *
 * Trains the rust classifier on rust3-like folders (`<class>/<image>`; default datasets/rust3 in the repository),
 * holding out the fixed evaluation set (packages/vision/eval-set.json, or --eval-list: `{ items: [{ file,
 * label, setting? }] }` or a bare array, files relative to the first --data folder), and writes a complete
 * model directory (model.onnx, weights.pt, model.json) to packages/vision/models/<version>/ or --out.
 *   --extra   more labelled photos: `[{ "path": "...", "label": "common_rust", "crop": "maize" }]` (paths
 *             relative to the list; `crop`, optional, also trains that crop's head)
 *   --init    fine-tune from these weights instead of training from scratch
 *   --limit   at most N base photos per class (quick runs: `--epochs 1 --limit 6`)
 *   --bg-replace P  show this share of lab photos on field-like backgrounds (soil, foliage, photos)
 *   --source-weights JSON  how often each photo of a source (or "source:label") is seen per epoch, e.g.
 *             '{"plantdoc":4,"plantdoc:common_rust":8}' (default: field photos twice, lab photos once)
 *   --crop-heads  a head per crop (maize, beans) beside the general one; the served answer then uses the
 *             crop the farmer names (measured and not shipped, see v1.2's model card)
 *   --crop-weights JSON  weight of a source's (or "source:label"'s) photos in their crop head, on top of how
 *             often they are seen (default '{"plantdoc":2,"plantdoc:common_rust":5}')
 *   --arch    kutunet (KutuNet from scratch, or fine-tuned from a KutuNet --init) or leafnet (a linear head
 *             on a frozen MobileNetV2). Default: leafnet when --init is a KutuLeafNet such as the served v2,
 *             whose own backbone and input size are kept (a head refit, as in-app retraining does); else
 *             kutunet. The served v2's backbone was fine-tuned on a GPU: recipe/ and its card.
 *   --python  a head refit (--init a KutuLeafNet) with trainer/train_head.py, as before decision 0029; by
 *             default it runs in Node (features with onnxruntime, head and ood statistics in TypeScript)
 *   --seed N  the trainer's random seed (default 42): two seeds show how much one recipe moves between runs
 *   --threads N  PyTorch threads (default 2; 1 trains faster when the cores are busy with other work)
 *   --activate  make the new model the shipped one (models/current.json)
 * Progress: one line per stage/epoch; the last line is JSON with the metrics of the served model.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDatasetDir, loadEvalSet } from '../dataset.ts';
import type { EvalItem } from '../evaluate.ts';
import { modelsDir } from '../index.ts';
import { trainModel } from '../train.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string', multiple: true },
    epochs: { type: 'string', default: '16' },
    version: { type: 'string' },
    activate: { type: 'boolean', default: false },
    extra: { type: 'string' },
    'eval-list': { type: 'string' },
    init: { type: 'string' },
    out: { type: 'string' },
    limit: { type: 'string' },
    'bg-replace': { type: 'string' },
    'source-weights': { type: 'string' },
    'crop-weights': { type: 'string' },
    'crop-heads': { type: 'boolean', default: false },
    seed: { type: 'string' },
    threads: { type: 'string' },
    arch: { type: 'string' },
    python: { type: 'boolean', default: false },
  },
});
if (values.arch !== undefined && values.arch !== 'kutunet' && values.arch !== 'leafnet') {
  console.error(`--arch must be kutunet or leafnet, not ${values.arch}`);
  process.exit(1);
}
const dataDirs = (values.data?.length ? values.data : [defaultDatasetDir]).map((d) => path.resolve(d));
for (const dir of dataDirs) {
  if (!fs.existsSync(dir)) {
    console.error(`No dataset at ${dir}. Pass --data DIR (a folder with common_rust/, healthy/, other_disease/).`);
    process.exit(1);
  }
}
function readList<T>(file: string): T[] {
  const spec = JSON.parse(fs.readFileSync(file, 'utf8')) as { items?: T[] } | T[];
  return Array.isArray(spec) ? spec : (spec.items ?? []);
}
const evalItems: EvalItem[] = values['eval-list']
  ? readList<EvalItem>(values['eval-list']).map((i) => ({ ...i, file: path.resolve(dataDirs[0], i.file) }))
  : loadEvalSet(dataDirs[0]).filter((i) => fs.existsSync(i.file));
const extraSamples = values.extra
  ? readList<{ path: string; label: string; crop?: string }>(values.extra).map((s) => ({
      ...s,
      path: path.resolve(path.dirname(path.resolve(values.extra!)), s.path),
    }))
  : [];
const version =
  values.version ?? `v${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${Date.now() % 100000}`;
const outDir = path.resolve(values.out ?? path.join(modelsDir, version));
const started = Date.now();
let lastStage = '';
const result = await trainModel({
  dataDirs,
  extraSamples,
  evalItems,
  initWeights: values.init ? path.resolve(values.init) : undefined,
  runtime: values.python ? 'python' : undefined,
  limitPerClass: values.limit ? Number(values.limit) : undefined,
  outDir,
  version,
  epochs: Number(values.epochs),
  threads: values.threads ? Number(values.threads) : undefined,
  arch: values.arch,
  extraTrainerArgs: [
    ...(values['bg-replace'] ? ['--bg-replace', values['bg-replace']] : []),
    ...(values['source-weights'] ? ['--source-weights', values['source-weights']] : []),
    ...(values['crop-heads'] ? ['--crop-heads'] : []),
    ...(values.seed ? ['--seed', values.seed] : []),
    ...(values['crop-weights'] ? ['--crop-weights', values['crop-weights']] : []),
  ],
  onProgress: (p) => {
    if (p.stage === 'prepare' && p.done !== p.total) return;
    const line =
      p.stage === 'train' && p.epoch
        ? `epoch ${p.epoch}/${p.epochs} loss ${p.loss ?? ''}`
        : `${p.stage}${p.total ? ` ${p.done}/${p.total}` : ''}`;
    if (line !== lastStage) console.log(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${line}`);
    lastStage = line;
  },
  card: {
    data: {
      dataset: dataDirs.map((d) => path.relative(process.cwd(), d)).join(', '),
      sources: 'rust3: see datasets/rust3/SOURCES.md',
      eval_set: values['eval-list'] ?? 'packages/vision/eval-set.json',
      extra_samples: extraSamples.length,
    },
  },
});
console.log(`\nModel ${version} written to ${path.relative(process.cwd(), result.modelDir)}`);
console.log(`Training took ${(result.seconds / 60).toFixed(1)} minutes on ${os.cpus().length} cores`);
if (values.activate) {
  fs.writeFileSync(path.join(modelsDir, 'current.json'), `${JSON.stringify({ version }, null, 2)}\n`);
  console.log(`Activated: models/current.json now names ${version}`);
}
console.log(
  JSON.stringify({
    model_dir: result.modelDir,
    seconds: Math.round(result.seconds),
    accuracy: result.metrics.accuracy,
    macro_f1: result.metrics.macro_f1,
    by_setting: result.metrics.accuracy_by_setting,
  }),
);
