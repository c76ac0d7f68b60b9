/**
 * The leaf in focus, found before the rust share is read and the spots are ringed (docs/decisions/0060-leaf-mask):
 * leaf-coloured pixels (green, pale leaf, pustules crowded among green) that are in focus (`sharpness`), closed
 * over small gaps, split where leaves touch through narrow necks, the largest piece near the centre (and any as
 * large), with its enclosed holes (pustules, lesions) filled in. Soil, dead leaves and sky are not leaf-coloured;
 * blurred plants behind the leaf are, but soft; so rings and share stay on the leaf. Pure TypeScript on the
 * model's square input (the same pixels the server and the phone already read), a few passes of box sums and
 * one flood fill: a few milliseconds per photo (bench/leaf-mask.ts).
 */

/** Below this the leaf is not found clearly enough to measure: the share is "could not be measured". */
export const LEAF_CONFIDENCE = 0.5;

export interface LeafMask {
  /** 1 inside the leaf, side×side. */
  mask: Uint8Array;
  /** Leaf pixels ÷ all pixels. */
  area: number;
  /**
   * Where a rust-coloured pixel may count: 2 inside the leaf, at least EDGE pixels from its edge (the crop's rule);
   * 1 on the edge, within a pixel of it, and in focus there (a pustule on the margin, not blur just behind it);
   * 0 elsewhere.
   */
  rustZone: Uint8Array;
  /** 0..1: how clearly one leaf stands out (size, how much of the green it holds, how little was filled in). */
  confidence: number;
}

/** Half-side of the box the sharpness is averaged over, in pixels of a 160 px input. */
const SHARP_NEAR = 4;
/** Pixels focused (`sharpness`) below this, or below SHARP_SHARE of the leaf colour's 90th percentile, are out of focus. */
const SHARP_ENOUGH = 0.8;
const SHARP_SHARE = 0.6;
/** Below this 90th-percentile focus the whole photo is soft: there is no focus to tell apart, colour alone decides. */
const SHARP_FLOOR = 0.9;
/**
 * Leaf tissue that is neither green nor rust-coloured: grey-green, whitish or yellowed (hue 45–200, not dark), as
 * a leaf crowded with pustules or lit yellow shows. Soil, dead leaves and dry stalks are browner (hue under 45).
 */
function paleLeaf(rgb: Uint8Array, i: number): boolean {
  const r = rgb[i * 3];
  const g = rgb[i * 3 + 1];
  const b = rgb[i * 3 + 2];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0 || max < 0.2 * 255) return false;
  let h: number;
  if (max === r) h = (((g - b) / d) % 6) * 60;
  else if (max === g) h = ((b - r) / d + 2) * 60;
  else h = ((r - g) / d + 4) * 60;
  if (h < 0) h += 360;
  return h >= 45 && h <= 200;
}

/** A rust-coloured pixel is taken as leaf when this share of its 9×9 box is green. */
const MIXED_GREEN = 0.2;
/** Closing (fills gaps: pustules, veins) and the erosion that parts leaves joined by necks thinner than 2·OPEN+1. */
const CLOSE = 4;
const OPEN = 5;
/** The band along the leaf's edge (pixels) where rust-coloured pixels need the leaf on most of their box. */
const EDGE = 3;
/** Holes enclosed by the leaf are filled when smaller than this share of it (bigger ones: background seen through). */
const HOLE_SHARE = 0.5;

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

/** Box sums of `values` (side×side) through an integral image: `sumIn(x0, y0, x1, y1)`, exclusive ends. */
function boxSums(values: ArrayLike<number>, side: number) {
  const w = side + 1;
  const sum = new Float64Array(w * w);
  for (let y = 0; y < side; y++) {
    let row = 0;
    for (let x = 0; x < side; x++) {
      row += values[y * side + x];
      sum[(y + 1) * w + x + 1] = sum[y * w + x + 1] + row;
    }
  }
  return (x0: number, y0: number, x1: number, y1: number) =>
    sum[y1 * w + x1] - sum[y0 * w + x1] - sum[y1 * w + x0] + sum[y0 * w + x0];
}

/** Square dilation (`grow`) or erosion of a 0/1 mask by `r` pixels: a sliding count along rows, then columns. */
function morph(mask: Uint8Array, side: number, r: number, grow: boolean): Uint8Array {
  const pass = (src: Uint8Array, step: number, across: number) => {
    const out = new Uint8Array(src.length);
    for (let line = 0; line < side; line++) {
      const base = line * across;
      let ones = 0;
      // The window is [lo, hi] after each step: its width is hi - lo + 1, with no min/max per pixel.
      let hi = Math.min(r, side) - 1;
      for (let k = 0; k <= hi; k++) ones += src[base + k * step];
      let lo = 0;
      for (let k = 0, at = base; k < side; k++, at += step) {
        if (hi < side - 1) ones += src[base + ++hi * step];
        if (k - r > lo) ones -= src[base + lo++ * step];
        out[at] = grow ? (ones > 0 ? 1 : 0) : ones === hi - lo + 1 ? 1 : 0;
      }
    }
    return out;
  };
  return pass(pass(mask, 1, side), side, 1);
}

/** 4-connected regions of pixels where `inside` is 1: a label per pixel (0: none) and each region's pixels. */
function regions(side: number, inside: Uint8Array) {
  const n = side * side;
  const label = new Int32Array(n);
  const members: Int32Array[] = [];
  const stack = new Int32Array(n);
  const pixels = new Int32Array(n);
  for (let start = 0; start < n; start++) {
    if (label[start] || !inside[start]) continue;
    const id = members.length + 1;
    let top = 0;
    let count = 0;
    label[start] = id;
    stack[top++] = start;
    while (top > 0) {
      const i = stack[--top];
      pixels[count++] = i;
      const x = i % side;
      if (i >= side && !label[i - side] && inside[i - side]) {
        label[i - side] = id;
        stack[top++] = i - side;
      }
      if (i < n - side && !label[i + side] && inside[i + side]) {
        label[i + side] = id;
        stack[top++] = i + side;
      }
      if (x > 0 && !label[i - 1] && inside[i - 1]) {
        label[i - 1] = id;
        stack[top++] = i - 1;
      }
      if (x < side - 1 && !label[i + 1] && inside[i + 1]) {
        label[i + 1] = id;
        stack[top++] = i + 1;
      }
    }
    members.push(pixels.slice(0, count));
  }
  return { label, members };
}

/**
 * Local focus: |Laplacian| ÷ |gradient| of the luma, each summed over a box of 2·near+1, for each `near`. A
 * ratio, so it does not depend on contrast: a blurred edge has a gradient but little curvature (blur of 2 px on
 * a 256 px photo reads 0.4–0.8), a surface in focus has fine detail at every scale (0.9–2, smooth leaves too).
 */
function sharpness(rgb: Uint8Array, side: number, nears: number[] = [SHARP_NEAR]): Float32Array[] {
  const n = side * side;
  const luma = new Float32Array(n);
  for (let i = 0; i < n; i++) luma[i] = 0.299 * rgb[i * 3] + 0.587 * rgb[i * 3 + 1] + 0.114 * rgb[i * 3 + 2];
  // Integral images of |Laplacian| and |gradient|, (side+1)² with a zero first row and column.
  const w = side + 1;
  const lap = new Float64Array(w * w);
  const grad = new Float64Array(w * w);
  for (let y = 0; y < side; y++) {
    let lapRow = 0;
    let gradRow = 0;
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      if (y > 0 && y < side - 1 && x > 0 && x < side - 1) {
        lapRow += Math.abs(4 * luma[i] - luma[i - 1] - luma[i + 1] - luma[i - side] - luma[i + side]);
        gradRow += (Math.abs(luma[i + 1] - luma[i - 1]) + Math.abs(luma[i + side] - luma[i - side])) / 2;
      }
      const j = (y + 1) * w + x + 1;
      lap[j] = lap[j - w] + lapRow;
      grad[j] = grad[j - w] + gradRow;
    }
  }
  return nears.map((near) => {
    const out = new Float32Array(n);
    for (let y = 0; y < side; y++) {
      const y0 = Math.max(0, y - near) * w;
      const y1 = Math.min(side, y + near + 1) * w;
      const rows = (y1 - y0) / w;
      for (let x = 0; x < side; x++) {
        const x0 = Math.max(0, x - near);
        const x1 = Math.min(side, x + near + 1);
        const l = lap[y1 + x1] - lap[y0 + x1] - lap[y1 + x0] + lap[y0 + x0];
        const g = grad[y1 + x1] - grad[y0 + x1] - grad[y1 + x0] + grad[y0 + x0];
        // Half a grey level of gradient per pixel keeps flat, noiseless areas from reading as detail.
        out[y * side + x] = l / (g + 0.5 * rows * (x1 - x0));
      }
    }
    return out;
  });
}

/** The value (to 0.01) below which `share` of `values` lie, among those where `pick`: a histogram, no sort. */
function quantile(values: Float32Array, pick: Uint8Array, share: number): number {
  const bins = new Uint32Array(1001);
  let picked = 0;
  for (let i = 0; i < values.length; i++)
    if (pick[i]) {
      bins[Math.min(1000, Math.floor(values[i] * 100))]++;
      picked++;
    }
  let seen = 0;
  for (let k = 0; k < bins.length; k++) {
    seen += bins[k];
    if (seen > share * picked) return k / 100;
  }
  return 0;
}

/**
 * The leaf in focus in RGB bytes (HWC, side×side), given which pixels are leaf-green (`kind` 1) and which
 * rust-coloured (`kind` 2), as `rustPixels` reads them.
 * Always returns a mask; its `confidence` says whether it is one leaf clearly enough to measure on.
 */
export function leafMask(rgb: Uint8Array, side: number, kind: Uint8Array): LeafMask {
  const n = side * side;
  const green = new Uint8Array(n);
  for (let i = 0; i < n; i++) green[i] = kind[i] === 1 ? 1 : 0;
  // Focus over 3×3 as well: the 9 px box alone reads blur within 4 px of a sharp leaf as sharp.
  const [sharp, fine] = sharpness(rgb, side, [SHARP_NEAR, 1]);
  const top = quantile(sharp, green, 0.9);
  const floor = top >= SHARP_FLOOR ? Math.min(SHARP_SHARE * top, SHARP_ENOUGH) : 0;
  const greenIn = boxSums(green, side);
  const candidate = new Uint8Array(n);
  let candidates = 0;
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      if (sharp[i] < floor || fine[i] < floor) continue;
      if (kind[i] === 0 && !paleLeaf(rgb, i)) continue;
      if (kind[i] === 2) {
        // Rust-coloured: leaf where it is mixed with green (pustules crowding a leaf), not soil beyond its edge.
        const x0 = Math.max(0, x - 4);
        const y0 = Math.max(0, y - 4);
        const x1 = Math.min(side, x + 5);
        const y1 = Math.min(side, y + 5);
        if (greenIn(x0, y0, x1, y1) < MIXED_GREEN * (x1 - x0) * (y1 - y0)) continue;
      }
      candidate[i] = 1;
      candidates++;
    }
  const closed = morph(morph(candidate, side, CLOSE, true), side, CLOSE, false);
  // Cores: what is left after eroding by OPEN, so leaves that touch through a narrow neck (a stem, a
  // strip of background plants) come apart; the kept cores grow back by as much, within the closed mask.
  const core = morph(closed, side, OPEN, false);
  const { label, members } = regions(side, core);
  const centre = (side - 1) / 2;
  const scored = members.map((pixels) => {
    let cx = 0;
    let cy = 0;
    let focus = 0;
    for (const i of pixels) {
      cx += i % side;
      cy += Math.floor(i / side);
      focus += sharp[i];
    }
    const off = Math.hypot(cx / pixels.length - centre, cy / pixels.length - centre) / (centre * Math.SQRT2);
    return { size: pixels.length, focus: focus / pixels.length, score: pixels.length * (1 - 0.5 * off) };
  });
  const mask = new Uint8Array(n);
  const best = scored.reduce((b, s, k) => (b < 0 || s.score > scored[b].score ? k : b), -1);
  if (best < 0) return { mask, rustZone: mask, area: 0, confidence: 0 };
  // The leaf, and pieces as big and as sharp as it (a leaf cut in two by a band of rust, a leaflet beside it).
  const kept = new Uint8Array(members.length + 1);
  scored.forEach((s, k) => {
    if (k === best || (s.size >= 0.6 * scored[best].size && s.focus >= 0.6 * scored[best].focus)) kept[k + 1] = 1;
  });
  const keptCore = new Uint8Array(n);
  for (let i = 0; i < n; i++) keptCore[i] = kept[label[i]];
  const grown = morph(keptCore, side, OPEN, true);
  let leafPixels = 0;
  for (let i = 0; i < n; i++)
    if (grown[i] && closed[i]) {
      mask[i] = 1;
      leafPixels++;
    }
  // Holes: regions outside the leaf that do not reach the photo's edge, filled when small.
  const outside = new Uint8Array(n);
  for (let i = 0; i < n; i++) outside[i] = 1 - mask[i];
  const holes = regions(side, outside);
  for (const pixels of holes.members) {
    if (pixels.length > HOLE_SHARE * leafPixels) continue;
    const atEdge = pixels.some((i) => {
      const x = i % side;
      return i < side || i >= n - side || x === 0 || x === side - 1;
    });
    if (!atEdge) for (const i of pixels) mask[i] = 1;
  }
  let area = 0;
  let heldGreen = 0;
  for (let i = 0; i < n; i++) {
    area += mask[i];
    if (mask[i] && candidate[i]) heldGreen++;
  }
  // One clear leaf: big enough (full at 8 % of the photo), holding most of the sharp green (not one of many
  // scattered bits), and mostly green itself (not mostly filled-in gaps).
  const size = clamp01((area / n - 0.03) / 0.05);
  const holds = clamp01((heldGreen / Math.max(1, candidates) - 0.15) / 0.25);
  const pure = clamp01((heldGreen / Math.max(1, area) - 0.3) / 0.3);
  const inner = morph(mask, side, EDGE, false);
  const edge = morph(mask, side, 1, true);
  const rustZone = new Uint8Array(n);
  for (let i = 0; i < n; i++) rustZone[i] = inner[i] ? 2 : edge[i] && fine[i] >= floor ? 1 : 0;
  return { mask, rustZone, area: area / n, confidence: Math.min(size, holds, pure) };
}
