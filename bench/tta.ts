/**
 * Test-time augmentation, measured (docs/decisions/0038), not served: the served model's answer averaged over
 * flips and a second, closer crop, against its plain answer.
 *
 *   npm run bench:tta [-- --model DIR --data datasets/rust3]
 *
 * Quality: the evaluation set (eval-set.json), the only photos the served network never trained on (iBean
 * field beans and PlantVillage lab maize; no field maize), with the risk–coverage figures of src/risk.ts
 * for each augmentation set and class-share cut. Speed: on a 12 MP JPEG like bench/analysis.ts's, the
 * median of sharp alone (decode + resize) and of the forward passes each set adds, one onnxruntime
 * thread. The photo is decoded once, at the closer crop's size, so a second scale costs no second decode.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { readCard } from '../packages/vision/src/classifier.ts';
import { cardSettings } from '../packages/vision/src/card-settings.ts';
import { type CLASSES, colourStats, decide, softmax } from '../packages/vision/src/decide.ts';
import { defaultDatasetDir, describeFile, loadEvalSet, toCrop } from '../packages/vision/src/dataset.ts';
import { defaultModelDir } from '../packages/vision/src/index.ts';
import { decodeRgb } from '../packages/vision/src/preprocess.ts';
import { candidateRules, riskCoverage, type ScoredPhoto } from '../packages/vision/src/risk.ts';
import { toTensorData } from '../packages/vision/src/tensor.ts';
import { bigLeafJpeg } from '../apps/server/test/support/photos.ts';

const { values } = parseArgs({ options: { model: { type: 'string' }, data: { type: 'string' } } });
const modelDir = path.resolve(values.model ?? defaultModelDir());
const card = await readCard(modelDir);
const served = cardSettings(card).thresholds;
const size = card.input_size;
/** The closer crop: the middle 80 % of each side. */
const CLOSE = 0.8;
const big = Math.round(size / CLOSE);

type View = 'orig' | 'hflip' | 'vflip' | 'close' | 'close-hflip';
const SETS: Record<string, View[]> = {
  none: ['orig'],
  'h-flip': ['orig', 'hflip'],
  'h+v flips': ['orig', 'hflip', 'vflip'],
  'two scales': ['orig', 'close'],
  'flips + two scales': ['orig', 'hflip', 'vflip', 'close', 'close-hflip'],
};

function flip(rgb: Uint8Array, side: number, horizontal: boolean): Uint8Array {
  const out = new Uint8Array(rgb.length);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const [sx, sy] = horizontal ? [side - 1 - x, y] : [x, side - 1 - y];
      out.set(rgb.subarray((sy * side + sx) * 3, (sy * side + sx) * 3 + 3), (y * side + x) * 3);
    }
  return out;
}

/**
 * Every view of a photo. `once`: one decode at `big` px, the whole photo resized from it (what a served TTA
 * would do, timed below); else the whole photo decoded exactly as the server does (the quality figures).
 */
async function views(image: Buffer, once = false): Promise<Record<View, Uint8Array>> {
  const large = await decodeRgb(image, big);
  const raw = { raw: { width: big, height: big, channels: 3 as const } };
  const orig = once
    ? new Uint8Array(await sharp(large, raw).resize(size, size, { kernel: 'lanczos3' }).raw().toBuffer())
    : new Uint8Array(await decodeRgb(image, size));
  const offset = Math.floor((big - size) / 2);
  const close = new Uint8Array(
    await sharp(large, raw).extract({ left: offset, top: offset, width: size, height: size }).raw().toBuffer(),
  );
  return {
    orig,
    hflip: flip(orig, size, true),
    vflip: flip(orig, size, false),
    close,
    'close-hflip': flip(close, size, true),
  };
}

const session = await ort.InferenceSession.create(path.join(modelDir, 'model.onnx'), {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all',
});
const input = session.inputNames[0];
async function run(rgbs: Uint8Array[]) {
  const data = new Float32Array(rgbs.length * 3 * size * size);
  for (const [i, rgb] of rgbs.entries()) data.set(toTensorData(rgb, size), i * 3 * size * size);
  const out = await session.run({ [input]: new ort.Tensor('float32', data, [rgbs.length, 3, size, size]) });
  const logits = out.logits.data as Float32Array;
  const ood = out.ood?.data as Float32Array | undefined;
  return rgbs.map((_, i) => ({ probs: softmax(logits.subarray(i * 4, i * 4 + 4)), ood: ood ? ood[i] : null }));
}

// Quality on the evaluation set.
const items = loadEvalSet(path.resolve(values.data ?? defaultDatasetDir));
const photos: Record<string, ScoredPhoto[]> = Object.fromEntries(Object.keys(SETS).map((k) => [k, []]));
for (const item of items) {
  const v = await views(await fs.readFile(item.file));
  const names = SETS['flips + two scales'];
  const outs = await run(names.map((n) => v[n]));
  const colours = colourStats(v.orig);
  const named = describeFile(item.file);
  for (const [set, members] of Object.entries(SETS)) {
    const picked = members.map((m) => outs[names.indexOf(m)]);
    const probs = [0, 1, 2, 3].map((k) => picked.reduce((s, o) => s + o.probs[k], 0) / picked.length);
    const ood = picked[0].ood === null ? null : picked.reduce((s, o) => s + (o.ood ?? 0), 0) / picked.length;
    const d = decide(probs, colours, served, card.version, ood);
    photos[set].push({
      file: item.file,
      crop: toCrop(named.crop) ?? 'unknown',
      source: named.source ?? 'unknown',
      truth: item.label as (typeof CLASSES)[number],
      output: {
        probabilities: d.probabilities,
        leaf_score: d.leaf_score,
        plant_fraction: d.plant_fraction,
        green_fraction: d.green_fraction,
        contrast: d.contrast,
        ood_score: d.ood_score,
        model_version: d.model_version,
      },
    });
  }
}
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const rules = [
  { name: `class share ≥ ${served.unsureBelow} (served)`, thresholds: {} },
  ...candidateRules(served).filter((r) => r.name.startsWith('class share ≥ 0.') && !r.name.includes('ood')),
];
const keyOf = (p: ScoredPhoto) => `${p.crop}/${p.source}`;
const keys = Object.keys(riskCoverage(photos.none, served, rules[0], keyOf));
console.log(`${card.version}: evaluation set, ${items.length} photos (coverage / confident wrong of answers)`);
console.log(`| augmentation | unsure rule | ${keys.join(' | ')} |`);
console.log(`| --- | --- | ${keys.map(() => '---').join(' | ')} |`);
for (const set of Object.keys(SETS))
  for (const rule of rules) {
    const r = riskCoverage(photos[set], served, rule, keyOf);
    console.log(
      `| ${set} | ${rule.name} | ${keys.map((k) => `${pct(r[k].coverage)} / ${pct(r[k].risk)} (${r[k].wrong}/${r[k].answered})`).join(' | ')} |`,
    );
  }

// Speed on a 12 MP JPEG (as bench/analysis.ts makes it).
const jpeg = await bigLeafJpeg(4000, 3000, 88);
async function median(fn: () => Promise<unknown>, n = 15) {
  for (let i = 0; i < 3; i++) await fn();
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  return t.sort((a, b) => a - b)[Math.floor(n / 2)];
}
const sharpAlone = await median(() => decodeRgb(jpeg, size));
const v = await views(jpeg, true);
const decodeViews = await median(() => views(jpeg, true));
console.log(`\n12 MP JPEG, medians of 15: sharp alone (decode + resize to ${size}) ${sharpAlone.toFixed(1)} ms`);
console.log(`  decode once at ${big} px and cut every view: ${decodeViews.toFixed(1)} ms`);
for (const [set, members] of Object.entries(SETS)) {
  const forward = await median(() => run(members.map((m) => v[m])));
  console.log(
    `  ${set.padEnd(20)} forward passes (batch of ${members.length}) ${forward.toFixed(1)} ms; decode + passes ${((set === 'none' ? sharpAlone : decodeViews) + forward).toFixed(1)} ms = ${(((set === 'none' ? sharpAlone : decodeViews) + forward) / sharpAlone).toFixed(2)}× sharp alone (before colour checks and heatmap)`,
  );
}
await session.release();
