/**
 * The leaf mask and the ringed rust spots against the main leaf outlined by hand on 121 field photos
 * (outlines.json, README.md), by source, for the tune half, the held-out report half (`outlineHalf`) and all,
 * and the leaf-confidence cut that keeps at least 90 % of the ringed area on the leaf
 * (docs/decisions/0081-one-leaf-or-no-rings.md), chosen on the tune half and reported on the other.
 *
 *   node packages/vision/research/leaf-outlines/measure.ts [--photos]
 *
 * Each photo is read as classify() reads it (160 px input) with its crop named (iBean: beans, PlantDoc: maize)
 * and, for the bean photos, with no crop named (the maize rules). Ringed area: the union of the `rust_spots`
 * boxes. Prints Markdown; exits 1 when the served card's cut (`answer.leafConfidence`) keeps under 90 % of the
 * ringed area on the leaf in a source with its crop named, or when classify() rings other spots than measured.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cardSettings } from '../../src/card-settings.ts';
import { loadClassifier } from '../../src/classifier.ts';
import { defaultDatasetDir } from '../../src/dataset.ts';
import { defaultModelDir } from '../../src/index.ts';
import {
  bySource,
  LEAF_CUTS,
  lowestCut,
  OUTLINE_SIDE,
  outlineHalf,
  type OutlinedReading,
  readAllOutlined,
  ringedOnLeaf,
} from '../../src/leaf-check.ts';

const TARGET = 0.9;
const { values } = parseArgs({ options: { photos: { type: 'boolean' } } });

const model = await loadClassifier(defaultModelDir());
const served = cardSettings(model.card).answer.leafConfidence;
const readings = await readAllOutlined();
/** Readings whose photo gets a confident rust answer: the ones a farmer sees rings and a share with. */
const rustAnswer = new Set<OutlinedReading>();
for (const r of readings) {
  const d = await model.classify(fs.readFileSync(path.join(defaultDatasetDir, r.photo.file)), { crop: r.crop });
  const drawn = r.confidence >= served ? r.spots.boxes : [];
  if (JSON.stringify(drawn) !== JSON.stringify(d.rust_spots?.boxes ?? []))
    throw new Error(`${r.photo.file}: classify() rings other spots than the reading measured here`);
  if (d.outcome === 'diagnosis' && d.rust_class === 'common_rust' && !d.unsure) rustAnswer.add(r);
}
await model.close();

const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(1)} %` : '–');
const median = (v: (number | null)[]) => {
  const s = v.filter((x): x is number => x !== null).sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : Number.NaN;
};
console.log(
  `Leaf mask and rings on ${readings.filter((r) => r.crop !== null).length} hand-outlined field photos (model ${model.version}, ${OUTLINE_SIDE} px input, served leaf cut ${served})`,
);
const tuneHalf = readings.filter((r) => outlineHalf(r.photo) === 'tune');
const reportHalf = readings.filter((r) => outlineHalf(r.photo) === 'report');
const halves = {
  'the tune half (62 photos outlined up to 2026-11-28: the mask, its cut and the second check were tuned or looked at on them)':
    tuneHalf,
  'the report half (59 photos outlined on 2026-11-29 in file order, after the rules were set: held out)': reportHalf,
  'all photos': readings,
};
for (const [title, some] of Object.entries(halves)) {
  console.log(`\n${title[0].toUpperCase()}${title.slice(1)}\n`);
  console.log(
    '| source, crop | photos | mask IoU, median | mask on the leaf, median | measured at the served cut | rings | ringed area on the leaf | confident rust answers ringed | their ringed area on the leaf |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const g of bySource(some)) {
    const kept = g.readings.filter((r) => r.confidence >= served);
    const shown = kept.filter((r) => rustAnswer.has(r) && r.spots.boxes.length > 0);
    console.log(
      `| ${g.name} | ${g.readings.length} | ${median(g.readings.map((r) => r.iou)).toFixed(2)} | ${pct(median(g.readings.map((r) => r.maskOnLeaf)))} | ${kept.length} | ${kept.reduce((a, r) => a + r.spots.boxes.length, 0)} | ${pct(ringedOnLeaf(g.readings, served))} | ${shown.length} | ${pct(ringedOnLeaf(shown, served))} |`,
    );
  }
}
const groups = bySource(readings);
const named = groups.filter((g) => g.named);
const tuneCut = lowestCut(
  bySource(tuneHalf).filter((g) => g.named),
  TARGET,
);
console.log(
  `\nChosen on the tune half, the lowest cut from which every cut keeps ≥ ${TARGET * 100} % of the ringed area on the leaf is ${tuneCut.toFixed(1)}; at it the report half keeps: ${bySource(
    reportHalf,
  )
    .filter((g) => g.named)
    .map(
      (g) =>
        `${g.name} ${pct(ringedOnLeaf(g.readings, tuneCut))} (${g.readings.filter((r) => r.confidence >= tuneCut).length} of ${g.readings.length} measured)`,
    )
    .join('; ')}`,
);

console.log('\nEvery cut: photos measured (rings and a share) and their ringed area on the leaf\n');
console.log(`| leaf cut | ${groups.map((g) => g.name).join(' | ')} |`);
console.log(`|---|${groups.map(() => '---').join('|')}|`);
for (const c of LEAF_CUTS)
  console.log(
    `| ${c.toFixed(1)} | ${groups.map((g) => `${g.readings.filter((r) => r.confidence >= c).length}: ${pct(ringedOnLeaf(g.readings, c))}`).join(' | ')} |`,
  );

console.log(
  `\nLowest cut from which every cut keeps ≥ ${TARGET * 100} % of the ringed area on the leaf in each source (crop named): ${lowestCut(named, TARGET).toFixed(1)}, tuned on these same photos`,
);
for (const [tune, check] of [named, [...named].reverse()]) {
  const c = lowestCut([tune], TARGET);
  console.log(
    `Held out by source: chosen on ${tune.name} alone the cut is ${c.toFixed(1)}; at it ${check.name} keeps ${pct(ringedOnLeaf(check.readings, c))} on the leaf (${check.readings.filter((r) => r.confidence >= c).length} of ${check.readings.length} measured)`,
  );
}

if (values.photos) {
  console.log(
    '\n| photo | crop | confident rust answer | leaf confidence | mask IoU | mask on the leaf | rings (no cut) | ringed area on the leaf |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of readings)
    console.log(
      `| ${path.basename(r.photo.file, '.jpg')} | ${r.crop ?? 'none (maize rules)'} | ${rustAnswer.has(r) ? 'yes' : 'no'} | ${r.confidence.toFixed(2)} | ${r.iou?.toFixed(2) ?? '–'} | ${r.maskOnLeaf === null ? '–' : pct(r.maskOnLeaf)} | ${r.spots.boxes.length} | ${r.ringPx ? pct(r.onLeafPx / r.ringPx) : '–'} |`,
    );
}

const failing = named.filter((g) => ringedOnLeaf(g.readings, served) < TARGET);
if (failing.length) {
  console.error(
    `The served cut ${served} keeps under ${TARGET * 100} % of the ringed area on the leaf in: ${failing.map((g) => g.name).join(', ')}`,
  );
  process.exit(1);
}
