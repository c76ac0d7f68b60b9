/**
 * Spots and share only on the leaf (docs/decisions/0060-leaf-mask): the rust reading with the leaf found first
 * (`rustPixels`, as served) against the whole-photo colour rule it replaced, where the leaf is known.
 * - Composites: lab rust leaves (PlantVillage, plain dark background) cut out and pasted onto rust-coloured soil,
 *   dead brown leaves, blurred green foliage (drawn with a fixed seed) and the repository's blurred field photos
 *   (bench/leaf-mask-scenes.ts). Ringed area on the leaf, leaf-mask IoU, share error against the same leaf on
 *   its plain background, and how often the share could not be measured.
 * - Healthy field leaves (iBean): rings drawn and the share. Rusty field photos: how many get no share.
 * - Field rust photos outlined by hand (bench/leaf-outlines.json): ringed area on the outlined leaf.
 * - Milliseconds per 12 MP photo: the decode to 160 px plus each reading, on the same run.
 *
 *   node bench/leaf-mask.ts [--per-set 30] [--pictures DIR]
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { defaultDatasetDir } from '../packages/vision/src/dataset.ts';
import { inPolygon } from '../packages/vision/src/leaf-check.ts';
import { decodeRgb } from '../packages/vision/src/preprocess.ts';
import { seededRandom } from '../packages/vision/src/seeded-random.ts';
import { rustPixels, type SeverityCrop } from '../packages/vision/src/severity.ts';
import { type RustSpots, spotsOfPixels } from '../packages/vision/src/spots.ts';
import { background, composite, cutOut, type SceneKind } from './leaf-mask-scenes.ts';
import { drawPair } from './leaf-mask-pictures.ts';

const SIDE = 160;
/** The hand-outlined field photos drawn for the model card, beside one composite per background. */
const PICTURED = new Set([
  'ibean__bean__bean_rust__0001.jpg',
  'plantdoc__maize__common_rust__0012.jpg',
  'plantdoc__maize__common_rust__0042.jpg',
]);
const { values } = parseArgs({ options: { 'per-set': { type: 'string' }, pictures: { type: 'string' } } });
const perSet = Number(values['per-set'] ?? 30);
const pictures = values.pictures;

/** What one reading says: the share (null: could not be measured), the rings, the leaf mask if any. */
function read(rgb: Uint8Array, crop: SeverityCrop, findLeaf: boolean) {
  const r = rustPixels(rgb, SIDE, crop, findLeaf);
  const spots: RustSpots = r ? spotsOfPixels(r.kind, SIDE) : { side: SIDE, aspect: 1, boxes: [] };
  return { share: r ? r.rust / (r.greens + r.rust) : null, spots, mask: r?.leaf?.mask ?? null };
}

/** Pixels inside any ring (the union of the boxes). */
function ringed(spots: RustSpots): Uint8Array {
  const inside = new Uint8Array(SIDE * SIDE);
  for (const [x0, y0, x1, y1] of spots.boxes)
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) inside[y * SIDE + x] = 1;
  return inside;
}

const tally = () => ({
  photos: 0,
  ringPx: 0,
  onLeafPx: 0,
  rings: 0,
  nulls: 0,
  iou: [] as number[],
  err: [] as number[],
});
type Tally = ReturnType<typeof tally>;

function count(t: Tally, reading: ReturnType<typeof read>, truth: Uint8Array, plainShare?: number | null) {
  t.photos++;
  t.rings += reading.spots.boxes.length;
  const inside = ringed(reading.spots);
  for (let i = 0; i < inside.length; i++)
    if (inside[i]) {
      t.ringPx++;
      t.onLeafPx += truth[i];
    }
  if (reading.share === null) t.nulls++;
  else if (plainShare != null) t.err.push(Math.abs(reading.share - plainShare));
  if (reading.mask) {
    let both = 0;
    let either = 0;
    for (let i = 0; i < truth.length; i++) {
      both += reading.mask[i] & truth[i];
      either += reading.mask[i] | truth[i];
    }
    t.iou.push(both / Math.max(1, either));
  }
}

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : Number.NaN);
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? Number.NaN;
function line(name: string, t: Tally) {
  const iou = t.iou.length ? `, leaf IoU median ${median(t.iou).toFixed(2)}` : '';
  const err = t.err.length ? `, share error mean ${(100 * mean(t.err)).toFixed(1)} pt` : '';
  return `  ${name.padEnd(6)} ringed area on the leaf ${pct(t.onLeafPx / Math.max(1, t.ringPx))} (${t.rings} rings), share not measured ${t.nulls}/${t.photos}${iou}${err}`;
}

const files = (dir: string, prefix: string) =>
  fs
    .readdirSync(path.join(defaultDatasetDir, dir))
    .filter((f) => f.startsWith(prefix))
    .sort()
    .map((f) => path.join(defaultDatasetDir, dir, f));
function pick<T>(items: T[], k: number, seed: number): T[] {
  const random = seededRandom(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, k).sort();
}

// 1. Composites where the leaf is known.
const labRust = pick(files('common_rust', 'plantvillage__'), perSet, 53);
const fieldBacks = pick(files('healthy', 'ibean__'), perSet, 54);
const kinds: SceneKind[] = ['soil', 'dead leaves', 'blurred foliage', 'field photo, blurred'];
console.log(`Composites: ${perSet} PlantVillage rust leaves (seed 53) on each background, maize rules`);
const examples: Parameters<typeof drawPair>[0][] = [];
for (const [k, kind] of kinds.entries()) {
  const before = tally();
  const after = tally();
  for (const [j, file] of labRust.entries()) {
    const plain = await decodeRgb(file, SIDE);
    const back = await background(kind, 1000 * k + j, fieldBacks[j]);
    const { photo, truth } = await composite(await cutOut(file), back, 7 * j + k, SIDE);
    const rgb = await decodeRgb(photo, SIDE);
    const old = read(rgb, 'maize', false);
    const neu = read(rgb, 'maize', true);
    count(before, old, truth, read(plain, 'maize', false).share);
    count(after, neu, truth, read(plain, 'maize', true).share);
    if (j === 0) examples.push({ name: `composite-${kind.replace(/[ ,]+/g, '-')}`, rgb, old, neu });
  }
  console.log(`${kind}:`);
  console.log(line('before', before));
  console.log(line('after', after));
}

// 2. Healthy field leaves: no rings, and a share under 1 %.
const healthy = pick(files('healthy', 'ibean__'), 2 * perSet, 55);
console.log(`Healthy field leaves: ${healthy.length} iBean photos (seed 55), bean rules`);
for (const findLeaf of [false, true]) {
  const rings: number[] = [];
  const shares: (number | null)[] = [];
  for (const file of healthy) {
    const r = read(await decodeRgb(file, SIDE), 'beans', findLeaf);
    rings.push(r.spots.boxes.length);
    shares.push(r.share);
  }
  const measured = shares.filter((s): s is number => s !== null);
  console.log(
    `  ${findLeaf ? 'after ' : 'before'} no rings ${rings.filter((n) => n === 0).length}/${healthy.length}, rings mean ${mean(rings).toFixed(1)} (max ${Math.max(...rings)}), share < 1 % ${measured.filter((s) => s < 0.01).length}/${measured.length} measured (median ${pct(median(measured))}, max ${pct(Math.max(...measured))}), not measured ${shares.length - measured.length}`,
  );
}

// 2b. How often a farmer's rusty field photo gets no share: every rusty field photo in the repository.
const fieldRust = [...files('common_rust', 'ibean__'), ...files('common_rust', 'plantdoc__')];
const unmeasured = [0, 0];
for (const file of fieldRust) {
  const rgb = await decodeRgb(file, SIDE);
  const crop = path.basename(file).startsWith('ibean') ? 'beans' : 'maize';
  if (read(rgb, crop, false).share === null) unmeasured[0]++;
  if (read(rgb, crop, true).share === null) unmeasured[1]++;
}
console.log(
  `Rusty field photos (all ${fieldRust.length}, iBean and PlantDoc): share not measured before ${unmeasured[0]}, after ${unmeasured[1]}`,
);

// 3. Field rust photos outlined by hand.
interface Outline {
  file: string;
  crop: SeverityCrop;
  /** Polygons around the leaf (or leaves) in focus, as fractions 0..1 of the photo's width and height. */
  leaf: [number, number][][];
}
const outlines: Outline[] = JSON.parse(fs.readFileSync(new URL('./leaf-outlines.json', import.meta.url), 'utf8'));
console.log(`Field rust photos outlined by hand: ${outlines.length} (bench/leaf-outlines.json)`);
const handBefore = tally();
const handAfter = tally();
for (const o of outlines) {
  const truth = new Uint8Array(SIDE * SIDE);
  for (let y = 0; y < SIDE; y++)
    for (let x = 0; x < SIDE; x++)
      truth[y * SIDE + x] = o.leaf.some((p) => inPolygon((x + 0.5) / SIDE, (y + 0.5) / SIDE, p)) ? 1 : 0;
  const rgb = await decodeRgb(path.join(defaultDatasetDir, o.file), SIDE);
  const old = read(rgb, o.crop, false);
  const neu = read(rgb, o.crop, true);
  const one = [tally(), tally()];
  count(one[0], old, truth);
  count(one[1], neu, truth);
  count(handBefore, old, truth);
  count(handAfter, neu, truth);
  const on = (t: Tally) => (t.ringPx ? pct(t.onLeafPx / t.ringPx) : 'no rings');
  const share = (s: number | null) => (s === null ? 'not measured' : pct(s));
  console.log(
    `  ${path.basename(o.file).padEnd(42)} before ${on(one[0])} of ${old.spots.boxes.length} rings, share ${share(old.share)}; after ${on(one[1])} of ${neu.spots.boxes.length}, share ${share(neu.share)}`,
  );
  if (PICTURED.has(path.basename(o.file)))
    examples.push({ name: `field-${path.basename(o.file, '.jpg')}`, rgb, old, neu });
}
console.log(line('before', handBefore));
console.log(line('after', handAfter));

// 4. Milliseconds per 12 MP photo, both readings on the same run.
const big = await sharp(outlines[0] ? path.join(defaultDatasetDir, outlines[0].file) : labRust[0])
  .resize(4000, 3000, { fit: 'fill' })
  .jpeg({ quality: 90 })
  .toBuffer();
const decodeMs: number[] = [];
let rgb = new Uint8Array(0);
for (let k = 0; k < 5; k++) {
  const t0 = performance.now();
  rgb = await decodeRgb(big, SIDE);
  decodeMs.push(performance.now() - t0);
}
const readMs = (findLeaf: boolean) => {
  const ms: number[] = [];
  for (let k = 0; k < 60; k++) {
    const t0 = performance.now();
    const r = rustPixels(rgb, SIDE, 'maize', findLeaf);
    if (r) spotsOfPixels(r.kind, SIDE);
    ms.push(performance.now() - t0);
  }
  return median(ms.slice(10));
};
const [oldMs, newMs] = [readMs(false), readMs(true)];
console.log(
  `12 MP photo (4000×3000 JPEG): decode to 160 px median ${median(decodeMs).toFixed(1)} ms; reading before ${oldMs.toFixed(2)} ms, after ${newMs.toFixed(2)} ms (median of 50): ${(median(decodeMs) + oldMs).toFixed(1)} → ${(median(decodeMs) + newMs).toFixed(1)} ms per photo`,
);

if (pictures) {
  fs.mkdirSync(pictures, { recursive: true });
  for (const e of examples) await drawPair(e, pictures);
  console.log(`Pictures: ${examples.length} in ${pictures}`);
}
