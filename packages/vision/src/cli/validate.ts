/**
 * npm run model:validate -- [--data DIR] [--cache DIR] [--recipe JSON]
 *
 * Validation by source of the leafnet recipe (KutuLeafNet: frozen pretrained MobileNetV2 + linear head; its
 * heads train in seconds on cached features, so every split is retrained). Its numbers are in the model card. Trains a head per split on frozen features and scores photos of a
 * source it never saw:
 *   (a) lab maize → field beans: trained on the PlantVillage photos only, scored on every iBean photo
 *   (b) PlantDoc maize 5-fold: trained on the other folds and all other photos, scored on the held-out fold
 *   (c) iBean: trained on everything but the evaluation set, scored on its iBean photos; and 5-fold over iBean
 * The rule (temperature, unsure and out-of-distribution cuts) is the frozen leafnet recipe's starting cuts (src/train.ts, FROM_SCRATCH_THRESHOLDS).
 * The frozen backbone's features of every photo (decoded by the serving pipeline) are computed once into
 * --cache (default: a folder under the OS temp dir; delete it when the data changes; about 11 minutes on
 * 2 shared cores), so later runs only fit the heads (about 17 minutes there, mostly the ood statistics). Last line: the results as JSON.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDatasetDir, evalSetFile, listImagesRecursive, listLabelledImages, nonLeafDir } from '../dataset.ts';
import { writeFeatures } from '../features.ts';
import { pythonModule } from '../python.ts';
import { FROM_SCRATCH_THRESHOLDS, LEAFNET_TEMPERATURE, PYTHON } from '../train.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: defaultDatasetDir },
    cache: { type: 'string', default: path.join(os.tmpdir(), 'kutu-validate-cache') },
    recipe: { type: 'string', default: '{}' },
  },
});
const data = path.resolve(values.data!);
const cache = path.resolve(values.cache!);
if (!fs.existsSync(path.join(cache, 'leaves.json'))) {
  console.error(`Computing the backbone's features of ${data} into ${cache} (once; minutes) …`);
  fs.mkdirSync(cache, { recursive: true });
  const backbone = path.join(cache, 'backbone.onnx');
  const features = pythonModule('trainer.features', [backbone]);
  execFileSync(PYTHON, features.args, { env: features.env });
  const negatives = listImagesRecursive(nonLeafDir).map((file) => ({ file, label: 'not_leaf' }));
  await writeFeatures(cache, 'nonleaf', negatives, ['orig', 'hflip', 'crop1', 'crop2', 'crop3'], backbone);
  await writeFeatures(cache, 'leaves', listLabelledImages(data), ['orig', 'hflip'], backbone, {
    onProgress: (done, total) => {
      if (done % 800 < 16) console.error(`  ${done}/${total}`);
    },
  });
}
fs.copyFileSync(evalSetFile, path.join(cache, 'eval.json'));
const t = FROM_SCRATCH_THRESHOLDS.leafnet;
const finite = (v: number) => (Number.isFinite(v) ? v : 1e9);
const rule = {
  temperature: LEAFNET_TEMPERATURE,
  not_leaf: t.notLeaf,
  unsure_below: t.unsureBelow,
  unsure_not_leaf_above: t.unsureNotLeafAbove,
  ood_unsure: finite(t.oodUnsureAbove),
  ood_not_leaf: finite(t.oodNotLeafAbove),
};
const output = await new Promise<string>((resolve, reject) => {
  const validate = pythonModule('trainer.validate', [
    '--cache',
    cache,
    '--rule',
    JSON.stringify(rule),
    '--recipe',
    values.recipe!,
  ]);
  const child = spawn(PYTHON, validate.args, { env: validate.env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.on('error', reject);
  child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`validate.py exited with ${code}`))));
});
const results = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, Record<string, number | null>>;
const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)} %`);
const rows: [string, string][] = [
  ['(a) lab maize → all iBean field beans', 'a_lab_to_field_beans'],
  ['(b) PlantDoc field maize, 5-fold', 'b_plantdoc_kfold'],
  ['(c) iBean photos of the evaluation set', 'c_ibean_eval_set'],
  ['(c) iBean, 5-fold', 'c_ibean_kfold'],
  ['evaluation set (all)', 'eval_set'],
  ['evaluation set (lab)', 'eval_set_lab'],
];
console.log(`leafnet rule: ${JSON.stringify(rule)}`);
console.log('split | photos | accuracy (confident and correct) | argmax accuracy | rust recall | unsure | not a leaf');
for (const [label, key] of rows) {
  const r = results[key];
  console.log(
    `${label} | ${r.photos} | ${pct(r.accuracy)} | ${pct(r.argmax_accuracy)} | ${pct(r.rust_recall)} | ${pct(r.unsure)} | ${pct(r.not_leaf)}`,
  );
}
console.log(JSON.stringify(results));
