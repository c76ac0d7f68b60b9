/**
 * npm run model:train -- [--data DIR] [--epochs N] [--version NAME] [--activate]
 * Trains the rust classifier on a rust3-like folder (default: ../shared/datasets/rust3), holding out the
 * fixed evaluation set, and writes packages/vision/models/<version>/. --activate makes it the shipped model.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDatasetDir, loadEvalSet } from '../dataset.ts';
import { modelsDir } from '../index.ts';
import { trainModel } from '../train.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: defaultDatasetDir },
    epochs: { type: 'string', default: '16' },
    version: { type: 'string' },
    activate: { type: 'boolean', default: false },
  },
});
const dataDir = path.resolve(values.data!);
if (!fs.existsSync(dataDir)) {
  console.error(`No dataset at ${dataDir}. Pass --data DIR (a folder with common_rust/, healthy/, other_disease/).`);
  process.exit(1);
}
const version =
  values.version ?? `v${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${Date.now() % 100000}`;
const outDir = path.join(modelsDir, version);
const started = Date.now();
let lastStage = '';
const result = await trainModel({
  dataDirs: [dataDir],
  evalItems: loadEvalSet(dataDir),
  outDir,
  version,
  epochs: Number(values.epochs),
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
    data: { dataset: 'rust3 (see ../shared/datasets/rust3/SOURCES.md)', eval_set: 'packages/vision/eval-set.json' },
  },
});
console.log(`\nModel ${version} written to ${path.relative(process.cwd(), result.modelDir)}`);
console.log(
  `Training took ${(result.seconds / 60).toFixed(1)} minutes on ${(await import('node:os')).cpus().length} cores`,
);
console.log(
  JSON.stringify({
    accuracy: result.metrics.accuracy,
    macro_f1: result.metrics.macro_f1,
    by_setting: result.metrics.accuracy_by_setting,
  }),
);
if (values.activate) {
  fs.writeFileSync(path.join(modelsDir, 'current.json'), `${JSON.stringify({ version }, null, 2)}\n`);
  console.log(`Activated: models/current.json now names ${version}`);
}
