/**
 * Photos where the leaf is known, for bench/leaf-mask.ts: the repository's lab leaves (PlantVillage, one
 * detached leaf on a plain dark background) cut out of their background (their true mask) and pasted onto
 * backgrounds drawn with a fixed seed (rust-coloured soil, dead brown leaves, blurred green foliage) or onto
 * the repository's own field photos blurred as a camera focused on a near leaf blurs what is behind it.
 * Everything is made at run time from the committed photos; nothing generated is stored.
 */
import sharp from 'sharp';
import { seededRandom } from '../packages/vision/src/seeded-random.ts';

export const CANVAS = 256;

/** A leaf cut out of its lab photo: RGBA with alpha 255 on the leaf, 0 on the background. */
export async function cutOut(file: string): Promise<Buffer> {
  const { data } = await sharp(file)
    .resize(CANVAS, CANVAS, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const n = CANVAS * CANVAS;
  // The backgrounds are black to dark grey and unsaturated: a pixel is leaf when bright or coloured.
  const on = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const [r, g, b] = [data[i * 3], data[i * 3 + 1], data[i * 3 + 2]];
    const max = Math.max(r, g, b);
    on[i] = max > 60 || max - Math.min(r, g, b) > 30 ? 1 : 0;
  }
  const leaf = largestWithHoles(on, CANVAS);
  const rgba = Buffer.alloc(n * 4);
  for (let i = 0; i < n; i++) {
    rgba.set([data[i * 3], data[i * 3 + 1], data[i * 3 + 2], leaf[i] ? 255 : 0], i * 4);
  }
  return rgba;
}

/** The largest 4-connected region of 1s with every hole in it filled (the whole leaf, pustules included). */
function largestWithHoles(on: Uint8Array, side: number): Uint8Array {
  const label = new Int32Array(on.length);
  let best = 0;
  let bestSize = 0;
  const flood = (start: number, id: number, inside: (i: number) => boolean) => {
    const stack = [start];
    label[start] = id;
    let size = 0;
    while (stack.length > 0) {
      const i = stack.pop() as number;
      size++;
      const x = i % side;
      for (const j of [i - side, i + side, x > 0 ? i - 1 : -1, x < side - 1 ? i + 1 : -1])
        if (j >= 0 && j < on.length && !label[j] && inside(j)) {
          label[j] = id;
          stack.push(j);
        }
    }
    return size;
  };
  let id = 0;
  for (let i = 0; i < on.length; i++)
    if (on[i] && !label[i]) {
      const size = flood(i, ++id, (j) => on[j] === 1);
      if (size > bestSize) [best, bestSize] = [id, size];
    }
  // Outside: what the photo's edge reaches without crossing the leaf.
  const outside = new Int32Array(on.length);
  const stack: number[] = [];
  for (let i = 0; i < on.length; i++) {
    const x = i % side;
    const edge = i < side || i >= on.length - side || x === 0 || x === side - 1;
    if (edge && label[i] !== best) {
      outside[i] = 1;
      stack.push(i);
    }
  }
  while (stack.length > 0) {
    const i = stack.pop() as number;
    const x = i % side;
    for (const j of [i - side, i + side, x > 0 ? i - 1 : -1, x < side - 1 ? i + 1 : -1])
      if (j >= 0 && j < on.length && !outside[j] && label[j] !== best) {
        outside[j] = 1;
        stack.push(j);
      }
  }
  return outside.map((o) => (o ? 0 : 1)) as unknown as Uint8Array;
}

export type SceneKind = 'soil' | 'dead leaves' | 'blurred foliage' | 'field photo, blurred';

/** An SVG of ellipses: `count` of them, colours from `palette`, sizes rx in [min, max]. */
function ellipses(random: () => number, count: number, palette: number[][], min: number, max: number): string {
  let body = '';
  for (let k = 0; k < count; k++) {
    const [r, g, b] = palette[Math.floor(random() * palette.length)];
    const jitter = () => Math.round((random() - 0.5) * 30);
    const rx = min + random() * (max - min);
    body += `<ellipse cx="${random() * CANVAS}" cy="${random() * CANVAS}" rx="${rx}" ry="${rx * (0.2 + random() * 0.5)}" transform="rotate(${random() * 180} ${CANVAS / 2} ${CANVAS / 2})" fill="rgb(${r + jitter()},${g + jitter()},${b + jitter()})"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CANVAS}" height="${CANVAS}">${body}</svg>`;
}

/** Per-pixel grain, so a sharp background is sharp (soil in focus has texture at every scale). */
async function withGrain(png: Buffer, random: () => number, amount: number): Promise<Buffer> {
  const { data } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += 3) {
    const d = Math.round((random() - 0.5) * amount);
    for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, data[i + c] + d));
  }
  return sharp(data, { raw: { width: CANVAS, height: CANVAS, channels: 3 } })
    .png()
    .toBuffer();
}

const SOIL = [
  [150, 78, 38],
  [130, 66, 34],
  [170, 96, 52],
  [110, 58, 32],
];
const DEAD = [
  [140, 96, 52],
  [176, 128, 70],
  [120, 74, 40],
  [160, 104, 48],
];
const FOLIAGE = [
  [60, 120, 40],
  [40, 90, 30],
  [90, 150, 60],
  [30, 70, 30],
];

/** A 256 px background of `kind`, the same for the same seed. */
export async function background(kind: SceneKind, seed: number, fieldPhoto?: string): Promise<Buffer> {
  const random = seededRandom(seed);
  const canvas = (rgb: number[]) =>
    sharp({ create: { width: CANVAS, height: CANVAS, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } });
  if (kind === 'field photo, blurred') {
    return sharp(fieldPhoto).resize(CANVAS, CANVAS, { fit: 'fill' }).blur(3).removeAlpha().png().toBuffer();
  }
  if (kind === 'blurred foliage') {
    const leaves = ellipses(random, 40, FOLIAGE, 20, 70);
    // sharp blurs before it composites, so the drawing and the blurring are two steps.
    const drawn = await canvas([35, 70, 30])
      .composite([{ input: Buffer.from(leaves) }])
      .png()
      .toBuffer();
    return sharp(drawn).blur(4).png().toBuffer();
  }
  const soil = await canvas(SOIL[0])
    .composite([{ input: Buffer.from(ellipses(random, 160, SOIL, 3, 14)) }])
    .png()
    .toBuffer();
  if (kind === 'soil') return withGrain(soil, random, 40);
  const dead = await sharp(soil)
    .composite([{ input: Buffer.from(ellipses(random, 30, DEAD, 15, 45)) }])
    .png()
    .toBuffer();
  return withGrain(dead, random, 30);
}

/**
 * The leaf pasted onto the background at scale 0.6–0.9 and a random place (fixed by `seed`), as a JPEG (a
 * phone's photo), with the leaf's true mask on the `side`×`side` squashed grid the estimate reads.
 */
export async function composite(leaf: Buffer, back: Buffer, seed: number, side: number) {
  const random = seededRandom(seed);
  const size = Math.round(CANVAS * (0.6 + random() * 0.3));
  const left = Math.floor(random() * (CANVAS - size));
  const top = Math.floor(random() * (CANVAS - size));
  const placed = await sharp(leaf, { raw: { width: CANVAS, height: CANVAS, channels: 4 } })
    .resize(size, size, { fit: 'fill' })
    .png()
    .toBuffer();
  const photo = await sharp(back)
    .composite([{ input: placed, left, top }])
    .jpeg({ quality: 90 })
    .toBuffer();
  // sharp resizes before it composites, so the placing and the squashing are two steps.
  const onCanvas = await sharp({ create: { width: CANVAS, height: CANVAS, channels: 4, background: '#0000' } })
    .composite([{ input: placed, left, top }])
    .png()
    .toBuffer();
  const alpha = await sharp(onCanvas).extractChannel(3).resize(side, side, { fit: 'fill' }).raw().toBuffer();
  return { photo, truth: Uint8Array.from(alpha, (a) => (a >= 128 ? 1 : 0)) };
}
