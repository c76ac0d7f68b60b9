/**
 * node packages/vision/src/cli/pustule-masks.ts [--overlays DIR] [--all]
 * Regenerates test/fixtures/pustule-masks/masks.json: pustule and leaf masks of rusty field photos of
 * datasets/rust3 by the colour rule below (the README in that folder states it and lists the photos).
 * --overlays DIR also writes, for checking by eye, contact sheets of the photos with their masks drawn
 * over them (off the leaf dimmed, pustules magenta); --all masks every candidate (the first 90 beans), the
 * dropped ones too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { defaultDatasetDir } from '../dataset.ts';
import { encodeRuns, MASK_SIZE, pustuleMasksDir } from '../pointing.ts';
import { decodeRgb } from '../preprocess.ts';

/**
 * The photos whose masks were checked by eye on the contact sheets (`--all --overlays DIR`) and found to lie
 * on the pustules with few marks elsewhere. The others were dropped: pale or dark pustules the rule misses,
 * soil, stems, hands or dead tissue at a leaf's edge taken for pustules, or dense clusters left out of the leaf.
 */
const CHECKED = new Set([
  'common_rust/plantdoc__maize__common_rust__0012.jpg',
  'common_rust/plantdoc__maize__common_rust__0022.jpg',
  'common_rust/plantdoc__maize__common_rust__0028.jpg',
  'common_rust/plantdoc__maize__common_rust__0029.jpg',
  'common_rust/plantdoc__maize__common_rust__0036.jpg',
  'common_rust/plantdoc__maize__common_rust__0042.jpg',
  'common_rust/plantdoc__maize__common_rust__0045.jpg',
  'common_rust/plantdoc__maize__common_rust__0048.jpg',
  'common_rust/plantdoc__maize__common_rust__0049.jpg',
  'common_rust/plantdoc__maize__common_rust__0050.jpg',
  'common_rust/plantdoc__maize__common_rust__0052.jpg',
  'common_rust/plantdoc__maize__common_rust__0054.jpg',
  'common_rust/plantdoc__maize__common_rust__0056.jpg',
  'common_rust/plantdoc__maize__common_rust__0057.jpg',
  'common_rust/plantdoc__maize__common_rust__0060.jpg',
  'common_rust/plantdoc__maize__common_rust__0063.jpg',
  'common_rust/plantdoc__maize__common_rust__0088.jpg',
  'common_rust/plantdoc__maize__common_rust__0090.jpg',
  'common_rust/plantdoc__maize__common_rust__0091.jpg',
  'common_rust/plantdoc__maize__common_rust__0093.jpg',
  'common_rust/plantdoc__maize__common_rust__0108.jpg',
  'common_rust/ibean__bean__bean_rust__0006.jpg',
  'common_rust/ibean__bean__bean_rust__0007.jpg',
  'common_rust/ibean__bean__bean_rust__0008.jpg',
  'common_rust/ibean__bean__bean_rust__0011.jpg',
  'common_rust/ibean__bean__bean_rust__0013.jpg',
  'common_rust/ibean__bean__bean_rust__0014.jpg',
  'common_rust/ibean__bean__bean_rust__0019.jpg',
  'common_rust/ibean__bean__bean_rust__0030.jpg',
  'common_rust/ibean__bean__bean_rust__0031.jpg',
  'common_rust/ibean__bean__bean_rust__0036.jpg',
  'common_rust/ibean__bean__bean_rust__0038.jpg',
  'common_rust/ibean__bean__bean_rust__0040.jpg',
  'common_rust/ibean__bean__bean_rust__0043.jpg',
  'common_rust/ibean__bean__bean_rust__0053.jpg',
  'common_rust/ibean__bean__bean_rust__0054.jpg',
  'common_rust/ibean__bean__bean_rust__0058.jpg',
  'common_rust/ibean__bean__bean_rust__0060.jpg',
  'common_rust/ibean__bean__bean_rust__0063.jpg',
  'common_rust/ibean__bean__bean_rust__0065.jpg',
  'common_rust/ibean__bean__bean_rust__0068.jpg',
  'common_rust/ibean__bean__bean_rust__0070.jpg',
  'common_rust/ibean__bean__bean_rust__0073.jpg',
  'common_rust/ibean__bean__bean_rust__0078.jpg',
  'common_rust/ibean__bean__bean_rust__0089.jpg',
  'common_rust/ibean__bean__bean_rust__0091.jpg',
  'common_rust/ibean__bean__bean_rust__0092.jpg',
  'common_rust/ibean__bean__bean_rust__0095.jpg',
]);

/** Photos with fewer pustule pixels (at MASK_SIZE) are not candidates. */
const MIN_PUSTULE_PIXELS = 12;

function hsv(r: number, g: number, b: number) {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let h = 0;
  if (d > 0) {
    if (max === r) h = (((g - b) / d) % 6) * 60;
    else if (max === g) h = ((b - r) / d + 2) * 60;
    else h = ((r - g) / d + 4) * 60;
    if (h < 0) h += 360;
  }
  return { h, s: max > 0 ? d / max : 0, v: max / 255 };
}

/**
 * The colour rule, per crop: see the README. Applied at WORK_SIZE, then the masks are shrunk to MASK_SIZE.
 * Beans differ: their photos' soil is rust-coloured right up to the leaf, so no rust-coloured pixel joins
 * the leaf, and their pustules show as small yellow-brown spots (pustule and halo), so the hue reaches yellow.
 */
export const RULES = {
  maize: {
    green: { hue: [60, 200], minSaturation: 0.1, minValue: 0.12 },
    /** Rust-coloured: hue from 5° to 48°, and at least `belowLeaf`° below the leaf's median hue. */
    rust: { hue: [5, 48], belowLeaf: 18, minSaturation: 0.38, value: [0.2, 0.92] },
    /** Rust-coloured pixels this close to green ones belong to the leaf (pustule clusters, lesions). */
    rustNearGreen: 8,
    /** The leaf: closed by this radius (fills pustules and small gaps inside it). */
    leafClosing: 8,
    /** Pustules are rust-coloured leaf pixels at least this far inside the leaf's edge (soil and stems at the edge are not). */
    edge: 3,
    largestLeafOnly: false,
  },
  beans: {
    green: { hue: [60, 200], minSaturation: 0.1, minValue: 0.12 },
    rust: { hue: [5, 72], belowLeaf: 12, minSaturation: 0.3, value: [0.2, 0.95] },
    rustNearGreen: 0,
    leafClosing: 6,
    edge: 4,
    /** The photographed leaf only: the largest leaf region (the others are other plants beside soil). */
    largestLeafOnly: true,
  },
} as const;
type Rule = (typeof RULES)[keyof typeof RULES];
const WORK_SIZE = 256;
/** Radius (px at WORK_SIZE) of the neighbourhood whose green hue a pustule is compared with. */
const LOCAL = 12;

/** Mean of `values` over the pixels with weight 1 within a (2r+1)² box; null where there are none. */
function boxMean(values: number[], weight: Uint8Array, size: number, r: number): (number | null)[] {
  const sum = new Float64Array((size + 1) * (size + 1));
  const cnt = new Float64Array((size + 1) * (size + 1));
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const i = (y + 1) * (size + 1) + x + 1;
      sum[i] = values[y * size + x] + sum[i - 1] + sum[i - size - 1] - sum[i - size - 2];
      cnt[i] = weight[y * size + x] + cnt[i - 1] + cnt[i - size - 1] - cnt[i - size - 2];
    }
  const at = (a: Float64Array, y: number, x: number) => a[y * (size + 1) + x];
  const out: (number | null)[] = [];
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const y0 = Math.max(0, y - r);
      const y1 = Math.min(size, y + r + 1);
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(size, x + r + 1);
      const box = (a: Float64Array) => at(a, y1, x1) - at(a, y0, x1) - at(a, y1, x0) + at(a, y0, x0);
      const n = box(cnt);
      out.push(n > 0 ? box(sum) / n : null);
    }
  return out;
}

const disk = (r: number) => {
  const offsets: [number, number][] = [];
  for (let dy = -r; dy <= r; dy++)
    for (let dx = -r; dx <= r; dx++) if (dx * dx + dy * dy <= r * r) offsets.push([dy, dx]);
  return offsets;
};

function dilate(bits: Uint8Array, size: number, r: number) {
  const out = new Uint8Array(bits.length);
  const offsets = disk(r);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      if (!bits[y * size + x]) continue;
      for (const [dy, dx] of offsets) {
        const yy = y + dy;
        const xx = x + dx;
        if (yy >= 0 && yy < size && xx >= 0 && xx < size) out[yy * size + xx] = 1;
      }
    }
  return out;
}

const invert = (bits: Uint8Array) => bits.map((b) => 1 - b);
const erode = (bits: Uint8Array, size: number, r: number) => invert(dilate(invert(bits), size, r));
const and = (a: Uint8Array, b: Uint8Array) => a.map((v, i) => v & b[i]);
const or = (a: Uint8Array, b: Uint8Array) => a.map((v, i) => v | b[i]);

/** The largest 4-connected region of a mask. */
function largestRegion(bits: Uint8Array, size: number) {
  const label = new Int32Array(bits.length);
  let best = 0;
  let bestSize = 0;
  let next = 0;
  for (let start = 0; start < bits.length; start++) {
    if (!bits[start] || label[start]) continue;
    next++;
    const stack = [start];
    label[start] = next;
    let n = 0;
    while (stack.length) {
      const i = stack.pop() as number;
      n++;
      const y = Math.floor(i / size);
      const x = i % size;
      for (const j of [
        x > 0 ? i - 1 : -1,
        x < size - 1 ? i + 1 : -1,
        y > 0 ? i - size : -1,
        y < size - 1 ? i + size : -1,
      ]) {
        if (j >= 0 && bits[j] && !label[j]) {
          label[j] = next;
          stack.push(j);
        }
      }
    }
    if (n > bestSize) {
      bestSize = n;
      best = next;
    }
  }
  return Uint8Array.from(label, (l) => (l === best && best > 0 ? 1 : 0));
}

/** Pustule and leaf masks (size×size) of RGB bytes by the colour rule. */
export function masksOf(rgb: Uint8Array, size: number, rule: Rule) {
  const green = new Uint8Array(size * size);
  const rust = new Uint8Array(size * size);
  const g = rule.green;
  const r = rule.rust;
  const pixels = Array.from({ length: size * size }, (_, i) => hsv(rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2]));
  const greenHues: number[] = [];
  for (const [i, { h, s, v }] of pixels.entries()) {
    if (h >= g.hue[0] && h <= g.hue[1] && s >= g.minSaturation && v >= g.minValue) {
      green[i] = 1;
      greenHues.push(h);
    }
  }
  // The leaf's own hue nearby (mean hue of the green pixels within LOCAL px): pustules are that much yellower or browner.
  const local = boxMean(
    pixels.map(({ h }, i) => (green[i] ? h : 0)),
    green,
    size,
    LOCAL,
  );
  const fallback = greenHues.reduce((a, b) => a + b, 0) / Math.max(greenHues.length, 1);
  for (const [i, { h, s, v }] of pixels.entries()) {
    const maxHue = Math.min(r.hue[1], (local[i] ?? fallback) - r.belowLeaf);
    if (h >= r.hue[0] && h <= maxHue && s >= r.minSaturation && v >= r.value[0] && v <= r.value[1]) rust[i] = 1;
  }
  const plant = rule.rustNearGreen > 0 ? or(green, and(rust, dilate(green, size, rule.rustNearGreen))) : green;
  const closed = erode(dilate(plant, size, rule.leafClosing), size, rule.leafClosing);
  const leaf = rule.largestLeafOnly ? largestRegion(closed, size) : closed;
  const pustule = and(rust, erode(leaf, size, rule.edge));
  return { leaf, pustule };
}

/** A 0/1 mask shrunk from `from` to `to` pixels a side: 1 where at least `share` of the area under it is 1. */
async function shrink(bits: Uint8Array, from: number, to: number, share: number) {
  const grey = await sharp(Buffer.from(bits.map((b) => b * 255)), { raw: { width: from, height: from, channels: 1 } })
    .resize(to, to, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return Uint8Array.from(grey, (v) => (v > 255 * share ? 1 : 0));
}

/** The masks of a photo at MASK_SIZE, from the squashed photo at WORK_SIZE (pustules are a few pixels there). */
export async function photoMasks(file: string, crop: keyof typeof RULES) {
  const big = masksOf(await decodeRgb(file, WORK_SIZE), WORK_SIZE, RULES[crop]);
  const pustule = await shrink(big.pustule, WORK_SIZE, MASK_SIZE, 0.1);
  const leaf = or(await shrink(big.leaf, WORK_SIZE, MASK_SIZE, 0.5), pustule);
  return { leaf, pustule };
}

interface Row {
  file: string;
  source: string;
  crop: 'maize' | 'beans';
}

function candidates(): Row[] {
  const lines = fs.readFileSync(path.join(defaultDatasetDir, 'MANIFEST.csv'), 'utf8').trim().split('\n');
  const head = lines[0].split(',');
  const col = (name: string) => head.indexOf(name);
  return lines
    .slice(1)
    .map((l) => l.split(','))
    .filter((c) => c[col('class')] === 'common_rust' && c[col('setting')] !== 'lab')
    .map((c) => ({
      file: c[col('file')],
      source: c[col('source')],
      crop: c[col('crop')] === 'bean' ? 'beans' : 'maize',
    }));
}

async function sheet(items: { row: Row; rgb: Buffer; leaf: Uint8Array; pustule: Uint8Array }[], file: string) {
  const cols = 3;
  const tile = MASK_SIZE;
  const zoom = 2;
  const rows = Math.ceil(items.length / cols);
  const composites = await Promise.all(
    items.map(async ({ rgb, leaf, pustule }, k) => {
      const px = Buffer.alloc(tile * tile * 3 * 2);
      // Left: the photo; right: the photo dimmed off the leaf, pustules red.
      for (let y = 0; y < tile; y++)
        for (let x = 0; x < tile; x++) {
          const i = y * tile + x;
          const o = (y * tile * 2 + x) * 3;
          const o2 = o + tile * 3;
          for (let c = 0; c < 3; c++) {
            px[o + c] = rgb[i * 3 + c];
            px[o2 + c] = leaf[i] ? rgb[i * 3 + c] : rgb[i * 3 + c] >> 2;
          }
          if (pustule[i]) px.set([255, 0, 255], o2);
        }
      const input = await sharp(px, { raw: { width: tile * 2, height: tile, channels: 3 } })
        .resize(tile * 2 * zoom, tile * zoom, { kernel: 'nearest' })
        .png()
        .toBuffer();
      return { input, left: (k % cols) * (tile * 2 * zoom + 6), top: Math.floor(k / cols) * (tile * zoom + 6) };
    }),
  );
  await sharp({
    create: {
      width: cols * (tile * 2 * zoom + 6),
      height: rows * (tile * zoom + 6),
      channels: 3,
      background: '#ffffff',
    },
  })
    .composite(composites)
    .png()
    .toFile(file);
}

const { values } = parseArgs({ options: { overlays: { type: 'string' }, all: { type: 'boolean', default: false } } });
const kept: Record<string, number> = { maize: 0, beans: 0 };
const chosen: { row: Row; rgb: Buffer; leaf: Uint8Array; pustule: Uint8Array }[] = [];
for (const row of candidates()) {
  if (!values.all && !CHECKED.has(row.file)) continue;
  if (values.all && row.crop === 'beans' && kept[row.crop] >= 90) continue;
  const file = path.join(defaultDatasetDir, row.file);
  const masks = await photoMasks(file, row.crop);
  const pustules = masks.pustule.reduce((a, b) => a + b, 0);
  // Too few pustule pixels to test pointing against (the rule missed them, or the leaf is barely rusty).
  if (pustules < MIN_PUSTULE_PIXELS) continue;
  chosen.push({ row, rgb: await decodeRgb(file, MASK_SIZE), ...masks });
  kept[row.crop]++;
}
if (values.overlays) {
  fs.mkdirSync(values.overlays, { recursive: true });
  for (let k = 0; k < chosen.length; k += 9) {
    await sheet(chosen.slice(k, k + 9), path.join(values.overlays, `sheet-${String(k / 9).padStart(2, '0')}.png`));
  }
  fs.writeFileSync(
    path.join(values.overlays, 'index.txt'),
    chosen.map((c, i) => `${Math.floor(i / 9)}:${i % 9} ${c.row.file}`).join('\n'),
  );
}
if (!values.all) {
  const photos = chosen.map(({ row, leaf, pustule }) => ({
    file: row.file,
    source: row.source,
    crop: row.crop,
    pustule: encodeRuns(pustule),
    leaf: encodeRuns(leaf),
  }));
  fs.mkdirSync(pustuleMasksDir, { recursive: true });
  fs.writeFileSync(
    path.join(pustuleMasksDir, 'masks.json'),
    `${JSON.stringify({ size: MASK_SIZE, rules: RULES, photos }, null, 1)}\n`,
  );
}
console.log(
  `${chosen.length} photos: ${Object.entries(kept)
    .map(([c, n]) => `${c} ${n}`)
    .join(', ')}`,
);
