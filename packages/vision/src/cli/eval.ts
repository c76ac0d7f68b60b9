/**
 * npm run model:eval -- --data DIR [--nonleaf DIR] [--model DIR] [--eval-set [--setting field|lab]] [--crop C]
 * With --eval-set, only the fixed evaluation images (eval-set.json) under the rust3 folder DIR are used.
 * --crop maize|beans|other: the crop a farmer names with every photo (leaf and non-leaf); without it each
 * leaf photo is named by its file's crop (rust3 naming, `<source>__<crop>__…`) or none, and each non-leaf
 * photo must be refused with no crop and with every crop named.
 * --curve: also print the risk–coverage table of candidate unsure rules (Markdown, for the model card).
 * Evaluates the served model (the same ONNX file and preprocessing as the server) and prints a report;
 * the last line is one JSON object with the metrics.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CLASSES, listImagesRecursive, listLabelledImages, loadEvalSet } from '../dataset.ts';
import { evaluateModel } from '../evaluate.ts';
import { defaultModelDir } from '../index.ts';
import { readCard } from '../classifier.ts';
import { CROPS } from '../browser.ts';
import { cardSettings } from '../card-settings.ts';
import type { ScoredPhoto } from '../risk.ts';
import { printRiskCoverage } from './risk-report.ts';
import { reportPointing } from './eval-pointing.ts';
import { reportSeverity } from './eval-severity.ts';
import { reportSpots } from './eval-spots.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    nonleaf: { type: 'string' },
    model: { type: 'string' },
    'eval-set': { type: 'boolean', default: false },
    setting: { type: 'string' },
    crop: { type: 'string' },
    curve: { type: 'boolean', default: false },
  },
});
const crop = CROPS.find((c) => c === values.crop);
if (values.crop !== undefined && !crop) {
  console.error(`--crop must be one of ${CROPS.join(', ')}, not ${values.crop}`);
  process.exit(2);
}
if (!values.data) {
  console.error('Usage: npm run model:eval -- --data DIR [--nonleaf DIR] [--model DIR]');
  process.exit(2);
}
for (const dir of [values.data, values.nonleaf].filter(Boolean) as string[]) {
  if (!fs.existsSync(dir)) {
    console.error(`No such folder: ${dir}`);
    process.exit(2);
  }
}
const modelDir = path.resolve(values.model ?? defaultModelDir());
const card = await readCard(modelDir);
const all = values['eval-set'] ? loadEvalSet(path.resolve(values.data)) : listLabelledImages(path.resolve(values.data));
const items = values.setting ? all.filter((i) => i.setting === values.setting) : all;
const nonLeaf = values.nonleaf ? listImagesRecursive(path.resolve(values.nonleaf)) : [];
if (items.length === 0 && nonLeaf.length === 0) {
  console.error(`No images found under ${values.data} (expected ${CLASSES.join('/, ')}/ subfolders).`);
  process.exit(2);
}
const photos: ScoredPhoto[] = [];
const r = await evaluateModel(modelDir, items, nonLeaf, { crop, onPhoto: (p) => photos.push(p) });
const pct = (v: number | null) => (v === null ? 'n/a' : `${(v * 100).toFixed(1)}%`);
console.log(`Model ${card.version} (${modelDir})${crop ? `, every photo named ${crop}` : ''}`);
console.log(`Leaf photos: ${r.images}   non-leaf photos: ${nonLeaf.length}`);
console.log(
  `Accuracy ${pct(r.accuracy)}   macro-F1 ${r.macro_f1.toFixed(3)}   unsure ${pct(r.unsure_rate)}   leaf photos rejected as no leaf ${pct(r.leaf_rejected_rate)}`,
);
for (const c of CLASSES)
  console.log(`  ${c.padEnd(14)} precision ${pct(r.per_class[c].precision)}  recall ${pct(r.per_class[c].recall)}`);
const groupLine = (name: string, groups: Record<string, number>) =>
  `${name}: ${Object.entries(groups)
    .map(([k, v]) => `${k} ${pct(v)}`)
    .join('   ')}`;
console.log(groupLine('Accuracy per crop', r.accuracy_by_crop));
console.log(groupLine('Accuracy per setting', r.accuracy_by_setting));
console.log(groupLine('Answered confidently per crop', r.coverage_by_crop));
console.log(groupLine('Confident wrong per crop', r.confident_wrong_by_crop));
console.log(groupLine('Confident wrong per setting', r.confident_wrong_by_setting));
// Per crop and source: what a farmer of that crop meets (coverage: answered confidently; confident wrong:
// a diagnosis given with confidence, of the wrong class). Unsure and refused photos count as not accurate.
console.log('Per crop and source:            photos  accuracy  coverage  confident wrong');
for (const [group, g] of Object.entries(r.by_crop_source)) {
  console.log(
    `  ${group.padEnd(28)} ${String(g.images).padStart(6)}  ${pct(g.accuracy).padStart(8)}  ${pct(g.coverage).padStart(8)}  ${pct(g.confident_wrong).padStart(15)}`,
  );
}
console.log(
  `Non-leaf photos without a confident diagnosis: ${pct(r.nonleaf_rejected)} (answered "not a leaf": ${pct(r.nonleaf_not_leaf)})`,
);
for (const miss of r.nonleaf_misses) console.log(`  confident diagnosis for a non-leaf photo: ${miss}`);
console.log(`Confusion (rows: truth; columns: ${r.confusion.labels.join(', ')}):`);
for (const [i, row] of r.confusion.matrix.entries()) {
  console.log(`  ${CLASSES[i].padEnd(14)} ${row.map((v) => String(v).padStart(5)).join('')}`);
}
printRiskCoverage(photos, cardSettings(card).thresholds, values.curve);
const pointing = await reportPointing(modelDir, card);
if (pointing.regressions.length > 0) process.exitCode = 1;
const severity = await reportSeverity(card);
const spots = await reportSpots(modelDir);
console.log(
  JSON.stringify({
    pointing: pointing.summary,
    severity,
    spots,
    images: r.images,
    accuracy: r.accuracy,
    macro_f1: r.macro_f1,
    per_class: r.per_class,
    unsure_rate: r.unsure_rate,
    nonleaf_rejected: r.nonleaf_rejected,
    accuracy_by_crop: r.accuracy_by_crop,
    accuracy_by_setting: r.accuracy_by_setting,
    coverage_by_crop: r.coverage_by_crop,
    confident_wrong_by_crop: r.confident_wrong_by_crop,
    coverage_by_setting: r.coverage_by_setting,
    confident_wrong_by_setting: r.confident_wrong_by_setting,
    by_crop_source: r.by_crop_source,
  }),
);
