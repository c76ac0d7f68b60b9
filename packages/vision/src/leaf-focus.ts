/**
 * What the leaf mask (leaf-mask.ts) reads from the pixels: focus, leaf colour and the steps of light where leaves
 * overlap. Pure TypeScript over RGB bytes (HWC, side×side), box sums through integral images: linear in the pixels.
 */
import { scratch } from './scratch.ts';

/** Half-side of the box the sharpness is averaged over, in pixels of a 160 px input. */
export const SHARP_NEAR = 4;
/** Pixels focused (`sharpness`) below this, or below SHARP_SHARE of the leaf colour's 90th percentile, are out of focus. */
export const SHARP_ENOUGH = 0.8;
export const SHARP_SHARE = 0.6;
/** Below this 90th-percentile focus the whole photo is soft: there is no focus to tell apart, colour alone decides. */
export const SHARP_FLOOR = 0.9;
/**
 * Leaf tissue that is neither green nor rust-coloured: grey-green, whitish or yellowed (hue 45–200, not dark), as
 * a leaf crowded with pustules or lit yellow shows. Soil, dead leaves and dry stalks are browner (hue under 45).
 */
export function paleLeaf(rgb: Uint8Array, i: number): boolean {
  const r = rgb[i * 3];
  const g = rgb[i * 3 + 1];
  const b = rgb[i * 3 + 2];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0 || max < 0.2 * 255) return false;
  let h: number;
  if (max === r) h = ((g - b) / d) * 60;
  else if (max === g) h = ((b - r) / d + 2) * 60;
  else h = ((r - g) / d + 4) * 60;
  if (h < 0) h += 360;
  return h >= 45 && h <= 200;
}

/** A step of light between leaves: at least this many grey levels per block, and this times the leaf's usual change. */
const EDGE_STEP = 6;
const EDGE_REL = 3;

/** Box sums of `values` (side×side) through an integral image: `sumIn(x0, y0, x1, y1)`, exclusive ends. */
export function boxSums(values: ArrayLike<number>, side: number, name: string) {
  const w = side + 1;
  const sum = scratch(name, Float64Array, w * w);
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

/**
 * Local focus: |Laplacian| ÷ |gradient| of the luma, each summed over a box of 2·near+1, for each `near`. A
 * ratio, so it does not depend on contrast: a blurred edge has a gradient but little curvature (blur of 2 px on
 * a 256 px photo reads 0.4–0.8), a surface in focus has fine detail at every scale (0.9–2, smooth leaves too).
 */
export function sharpness(rgb: Uint8Array, side: number, nears: number[] = [SHARP_NEAR]): Float32Array[] {
  const n = side * side;
  const luma = scratch('sharpness.luma', Float32Array, n);
  for (let i = 0; i < n; i++) luma[i] = 0.299 * rgb[i * 3] + 0.587 * rgb[i * 3 + 1] + 0.114 * rgb[i * 3 + 2];
  // Integral images of |Laplacian| and |gradient|, (side+1)² with a zero first row and column.
  const w = side + 1;
  const lap = scratch('sharpness.lap', Float64Array, w * w);
  const grad = scratch('sharpness.grad', Float64Array, w * w);
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
  return nears.map((near, k) => {
    const out = scratch(`sharpness.${k}`, Float32Array, n);
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
export function quantile(values: Float32Array, pick: Uint8Array, share: number, perUnit = 100): number {
  const bins = new Uint32Array(1001);
  let picked = 0;
  for (let i = 0; i < values.length; i++)
    if (pick[i]) {
      bins[Math.min(1000, Math.floor(values[i] * perUnit))]++;
      picked++;
    }
  let seen = 0;
  for (let k = 0; k < bins.length; k++) {
    seen += bins[k];
    if (seen > share * picked) return k / perUnit;
  }
  return 0;
}

/**
 * Where the light steps on the w×w grid of step×step blocks (w = side ÷ step): the blocks' luma, smoothed over 3×3
 * blocks so that a vein's thin line fades, changing by at least EDGE_STEP grey levels per block and EDGE_REL times
 * its median change within `within` (a textured leaf's own veins stay under it). Where two leaves overlap or
 * touch, a shadow or a leaf turned another way makes such a step.
 */
export function lightEdges(rgb: Uint8Array, side: number, step: number, within: Uint8Array): Uint8Array {
  const w = side / step;
  const m = w * w;
  const luma = new Float32Array(m);
  for (let y = 0; y < side; y++) {
    const blockRow = Math.floor(y / step) * w;
    for (let x = 0; x < side; x++) {
      const i = (y * side + x) * 3;
      luma[blockRow + Math.floor(x / step)] += 0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2];
    }
  }
  const sums = boxSums(luma, w, 'lightEdges.sums');
  const smooth = new Float32Array(m);
  for (let y = 0; y < w; y++)
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - 1);
      const y0 = Math.max(0, y - 1);
      const x1 = Math.min(w, x + 2);
      const y1 = Math.min(w, y + 2);
      smooth[y * w + x] = sums(x0, y0, x1, y1) / ((x1 - x0) * (y1 - y0) * step * step);
    }
  const change = new Float32Array(m);
  for (let y = 1; y < w - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const j = y * w + x;
      const across = smooth[j + 1] - smooth[j - 1];
      const down = smooth[j + w] - smooth[j - w];
      // Not Math.hypot, several times slower in V8; the same float32 on every dataset photo.
      change[j] = Math.sqrt(across * across + down * down) / 2;
    }
  const typical = quantile(change, within, 0.5, 10);
  const cut = new Uint8Array(m);
  for (let j = 0; j < m; j++) cut[j] = change[j] >= Math.max(EDGE_STEP, EDGE_REL * typical) ? 1 : 0;
  return cut;
}
