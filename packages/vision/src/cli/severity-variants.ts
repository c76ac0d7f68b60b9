/**
 * node packages/vision/src/cli/severity-variants.ts
 * The severity estimate (docs/decisions/0045) plain and gated by the served model's heatmap, against the
 * pustule masks of the 48 rusty field photos: does weighting the leaf by where the network looked help?
 * Gated variants: each pixel weighted by the map's heat (0..1, as shown), or only pixels with heat ≥ 0.5.
 * A photo the model does not answer rust (or with no map) keeps its plain estimate in the gated rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { answerOf } from '../card-settings.ts';
import { loadClassifier } from '../classifier.ts';
import { defaultDatasetDir } from '../dataset.ts';
import { resampleHeat } from '../heat.ts';
import { defaultModelDir } from '../index.ts';
import { loadPustuleMasks, MASK_SIZE } from '../pointing.ts';
import { decodeRgb } from '../preprocess.ts';
import { maskShare, type SeverityPhoto, summariseSeverity } from '../severity-check.ts';
import { estimateSeverity } from '../severity.ts';

const classifier = await loadClassifier(defaultModelDir());
const rows: Record<string, SeverityPhoto[]> = { plain: [], 'heat-weighted': [], 'heat ≥ 0.5': [] };
let rustAnswers = 0;
for (const m of loadPustuleMasks()) {
  const file = path.join(defaultDatasetDir, m.file);
  const rgb = await decodeRgb(file, MASK_SIZE);
  const d = await classifier.classify(fs.readFileSync(file), { crop: m.crop });
  const truth = maskShare(m);
  const plain = estimateSeverity(rgb, MASK_SIZE, m.crop)?.share ?? 0;
  const row = (estimate: number) => ({ file: m.file, crop: m.crop, truth, estimate });
  rows.plain.push(row(plain));
  const isRust = d.outcome === 'diagnosis' && d.rust_class === 'common_rust' && !d.unsure && d.heat;
  if (isRust) rustAnswers++;
  const heat = isRust && d.heat ? resampleHeat(d.heat, MASK_SIZE, MASK_SIZE) : null;
  rows['heat-weighted'].push(row(heat ? (estimateSeverity(rgb, MASK_SIZE, m.crop, heat)?.share ?? 0) : plain));
  const gate = heat ? heat.map((v) => (v >= 0.5 ? 1 : 0)) : null;
  rows['heat ≥ 0.5'].push(row(gate ? (estimateSeverity(rgb, MASK_SIZE, m.crop, gate)?.share ?? 0) : plain));
}
await classifier.close();
console.log(`${rows.plain.length} photos, ${rustAnswers} answered confident rust with a map (${classifier.version})`);
for (const [name, photos] of Object.entries(rows)) {
  const s = summariseSeverity(photos, answerOf(classifier.card).severityCuts);
  console.log(
    `${name.padEnd(14)} same band ${(s.bandAgreement * 100).toFixed(1)}%  Pearson ${s.pearson.toFixed(2)}  Spearman ${s.spearman.toFixed(2)}  bias ${(s.meanBias * 100).toFixed(1)} points`,
  );
}
