/**
 * What the severity estimate (docs/decisions/0045) adds to each analysis: `estimateSeverity` on the 160 px
 * RGB the classifier has already decoded, for each of the 48 masked rusty field photos, against the
 * classifier's whole `classify()` on the same photos; and `rustReading` (share plus outlined spots, decision
 * 0054), which classify() runs instead. Prints median and 95th percentile milliseconds.
 *
 *   node bench/severity.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadClassifier } from '../packages/vision/src/classifier.ts';
import { defaultDatasetDir } from '../packages/vision/src/dataset.ts';
import { defaultModelDir } from '../packages/vision/src/index.ts';
import { loadPustuleMasks, MASK_SIZE } from '../packages/vision/src/pointing.ts';
import { decodeRgb } from '../packages/vision/src/preprocess.ts';
import { estimateSeverity } from '../packages/vision/src/severity.ts';
import { rustReading } from '../packages/vision/src/spots.ts';
import { cardSettings } from '../packages/vision/src/card-settings.ts';
import { readCard } from '../packages/vision/src/classifier.ts';

/** The served card's leaf cut, as classify() applies it. */
const LEAF_CUT = cardSettings(await readCard(defaultModelDir())).answer.leafConfidence;

const masks = loadPustuleMasks();
const photos = await Promise.all(
  masks.map(async (m) => {
    const file = path.join(defaultDatasetDir, m.file);
    return { crop: m.crop, bytes: fs.readFileSync(file), rgb: await decodeRgb(file, MASK_SIZE) };
  }),
);
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)].toFixed(2)} ms, p95 ${s[Math.floor(s.length * 0.95)].toFixed(2)} ms`;
};

const estimate: number[] = [];
for (let round = 0; round < 5; round++)
  for (const p of photos) {
    const t = performance.now();
    estimateSeverity(p.rgb, MASK_SIZE, p.crop);
    if (round > 0) estimate.push(performance.now() - t);
  }
// What classify() runs since decision 0054: the same reading plus grouping the counted pixels into spots.
const reading: number[] = [];
for (let round = 0; round < 5; round++)
  for (const p of photos) {
    const t = performance.now();
    rustReading(p.rgb, MASK_SIZE, p.crop, 4 / 3, LEAF_CUT);
    if (round > 0) reading.push(performance.now() - t);
  }
const classifier = await loadClassifier(defaultModelDir());
const classify: number[] = [];
for (let round = 0; round < 2; round++)
  for (const p of photos) {
    const t = performance.now();
    await classifier.classify(p.bytes, { crop: p.crop });
    if (round > 0) classify.push(performance.now() - t);
  }
await classifier.close();
console.log(`${photos.length} photos, ${MASK_SIZE} px input`);
console.log(`estimateSeverity (share only, before decision 0054): ${stats(estimate)}`);
console.log(`rustReading (share and outlined spots, served since 0054): ${stats(reading)}`);
console.log(`classify() (decode, model, heatmap, severity included): ${stats(classify)}`);
