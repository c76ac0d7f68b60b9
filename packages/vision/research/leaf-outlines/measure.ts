/**
 * The leaf mask and the ringed rust spots against the main leaf outlined by hand on 50 field photos
 * (outlines.json, README.md), by source: what classify() returns for each photo with its crop named (and, for
 * the bean photos, with no crop named, which reads them with the maize rules).
 *
 *   node packages/vision/research/leaf-outlines/measure.ts [--photos]
 *
 * Prints Markdown: per source, the mask's agreement with the outline (IoU, share of the mask on the leaf) and
 * the share of the ringed area (the union of `rust_spots.boxes`) that lies on the outlined leaf.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDatasetDir } from '../../src/dataset.ts';
import { defaultModelDir } from '../../src/index.ts';
import { loadClassifier } from '../../src/classifier.ts';
import { decodeRgb } from '../../src/preprocess.ts';
import { rustPixels, severityCropOf } from '../../src/severity.ts';

const SIDE = 160;
const { values } = parseArgs({ options: { photos: { type: 'boolean' } } });

interface Photo {
  file: string;
  source: string;
  crop: string;
  class: string;
  width: number;
  height: number;
  leaf: [number, number][][] | null;
}
const { photos } = JSON.parse(fs.readFileSync(new URL('./outlines.json', import.meta.url), 'utf8')) as {
  photos: Photo[];
};

const inPolygon = (x: number, y: number, poly: [number, number][]) => {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};

/** The outline on the model's square input (the photo squashed to SIDE×SIDE), pixel centres inside any polygon. */
function truthOf(p: Photo): Uint8Array {
  const truth = new Uint8Array(SIDE * SIDE);
  for (let y = 0; y < SIDE; y++)
    for (let x = 0; x < SIDE; x++) {
      const [px, py] = [((x + 0.5) * p.width) / SIDE, ((y + 0.5) * p.height) / SIDE];
      truth[y * SIDE + x] = p.leaf?.some((poly) => inPolygon(px, py, poly)) ? 1 : 0;
    }
  return truth;
}

/** Pixels inside any box (the union of the rings' boxes). */
function ringed(boxes: [number, number, number, number][]): Uint8Array {
  const inside = new Uint8Array(SIDE * SIDE);
  for (const [x0, y0, x1, y1] of boxes)
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) inside[y * SIDE + x] = 1;
  return inside;
}

interface Row {
  photo: Photo;
  rules: string;
  shown: boolean;
  share: number | null;
  confidence: number | null;
  rings: number;
  ringPx: number;
  onLeafPx: number;
  iou: number | null;
  maskOnLeaf: number | null;
}

const model = await loadClassifier(defaultModelDir());
const rows: Row[] = [];
for (const photo of photos) {
  const file = path.join(defaultDatasetDir, photo.file);
  const bytes = fs.readFileSync(file);
  const truth = truthOf(photo);
  const rgb = await decodeRgb(file, SIDE);
  for (const crop of photo.crop === 'beans' ? ['beans', null] : ['maize']) {
    const d = await model.classify(bytes, { crop: crop as 'beans' | 'maize' | null });
    const read = rustPixels(rgb, SIDE, severityCropOf(crop));
    const mask = read?.leaf?.mask ?? null;
    const boxes = d.rust_spots?.boxes ?? [];
    const inside = ringed(boxes);
    let ringPx = 0;
    let onLeafPx = 0;
    for (let i = 0; i < inside.length; i++)
      if (inside[i]) {
        ringPx++;
        onLeafPx += truth[i];
      }
    let both = 0;
    let either = 0;
    let maskPx = 0;
    if (mask)
      for (let i = 0; i < mask.length; i++) {
        both += mask[i] & truth[i];
        either += mask[i] | truth[i];
        maskPx += mask[i];
      }
    rows.push({
      photo,
      rules: crop === null ? 'maize rules (no crop named)' : `${crop} rules`,
      shown: d.outcome === 'diagnosis' && d.rust_class === 'common_rust' && !d.unsure && d.rust_share != null,
      share: d.rust_share ?? null,
      confidence: read?.leaf?.confidence ?? null,
      rings: boxes.length,
      ringPx,
      onLeafPx,
      iou: mask && photo.leaf ? both / Math.max(1, either) : null,
      maskOnLeaf: mask ? both / Math.max(1, maskPx) : null,
    });
  }
}
await model.close();

const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(1)} %` : '–');
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : Number.NaN;
};
const onLeaf = (rs: Row[]) =>
  rs.reduce((a, r) => a + r.onLeafPx, 0) /
  Math.max(
    1,
    rs.reduce((a, r) => a + r.ringPx, 0),
  );

console.log(
  `Leaf mask and rings on ${photos.length} hand-outlined field photos (model ${model.version}, ${SIDE} px input)\n`,
);
console.log(
  '| source, rules | photos | share measured | mask IoU, median | mask on the leaf, median | rings | ringed area on the leaf | photos shown rings | ringed area on the leaf, shown |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
const groups = [...new Set(rows.map((r) => `${r.photo.source}, ${r.rules}`))];
for (const g of groups) {
  const rs = rows.filter((r) => `${r.photo.source}, ${r.rules}` === g);
  const measured = rs.filter((r) => r.share !== null);
  const shown = rs.filter((r) => r.shown);
  console.log(
    `| ${g} | ${rs.length} | ${measured.length} | ${median(rs.flatMap((r) => (r.iou === null ? [] : [r.iou]))).toFixed(2)} | ${pct(median(rs.flatMap((r) => (r.maskOnLeaf === null ? [] : [r.maskOnLeaf]))))} | ${rs.reduce((a, r) => a + r.rings, 0)} | ${pct(onLeaf(measured))} | ${shown.filter((r) => r.rings > 0).length} | ${pct(onLeaf(shown))} |`,
  );
}

if (values.photos) {
  console.log(
    '\n| photo | rules | answer shows rings | share | leaf confidence | mask IoU | mask on the leaf | rings | ringed area on the leaf |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${path.basename(r.photo.file, '.jpg')} | ${r.rules} | ${r.shown ? 'yes' : 'no'} | ${r.share === null ? 'not measured' : pct(r.share)} | ${r.confidence?.toFixed(2) ?? '–'} | ${r.iou?.toFixed(2) ?? '–'} | ${r.maskOnLeaf === null ? '–' : pct(r.maskOnLeaf)} | ${r.rings} | ${r.ringPx ? pct(r.onLeafPx / r.ringPx) : '–'} |`,
    );
}
