/**
 * One leaf counts once (decision 0062-one-leaf-counts-once): a small grey print of each photo, and whether
 * two prints show the same leaf, even cropped (to 65 % of each side), mirrored or re-exposed. Pure
 * TypeScript: the server (sharp's pixels) and the phone (a canvas's pixels) make and compare the same print.
 *
 * The print is the photo squashed to PRINT_SIDE² grey pixels (the mean of each cell). Two prints match when
 * one, or its mirror image, lines up with a window of the other (any scale from 1 down to MIN_SCALE, any
 * offset on the print's grid): the window is resampled to the print's size and the two are compared by the
 * mean of two correlations, of the grey images (the leaf's shape) and of their detail (each minus its 5×5
 * blur: veins, spots, edges), each centred on its mean, which ignores brightness and contrast. The grey
 * alone matched a bean field photo with a maize lab photo (0.86); the detail keeps such pairs apart.
 */

/** Side of the print in pixels. */
export const PRINT_SIDE = 32;
/** Side of the square the callers squash the upright photo to before `leafPrint` (sharp on the server, a canvas on the phone). */
export const PRINT_SOURCE_SIDE = 64;
/** The smallest share of the other photo's side a crop may keep and still be found. */
export const MIN_SCALE = 0.65;
/**
 * At or above this correlation two prints show the same leaf. Chosen on the repository's photos
 * (packages/vision/research/leafprint/measure.ts): crops of 70–90 %, mirror images and ×0.6 / ×1.4
 * exposures found, different leaves of one source kept apart.
 */
export const SAME_LEAF_AT = 0.6;

const SCALES = [1, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, MIN_SCALE];

/**
 * A photo's print from its pixels (RGB or RGBA, rows top to bottom, already upright): the mean grey of
 * each of PRINT_SIDE² cells. Any size works; the callers give a square of PRINT_SOURCE_SIDE px (the photo squashed).
 */
export function leafPrint(
  pixels: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  channels: 3 | 4,
): Uint8Array {
  const sums = new Float64Array(PRINT_SIDE * PRINT_SIDE);
  const counts = new Float64Array(PRINT_SIDE * PRINT_SIDE);
  for (let y = 0; y < height; y++) {
    const cy = Math.min(PRINT_SIDE - 1, Math.floor((y * PRINT_SIDE) / height));
    for (let x = 0; x < width; x++) {
      const cx = Math.min(PRINT_SIDE - 1, Math.floor((x * PRINT_SIDE) / width));
      const i = (y * width + x) * channels;
      sums[cy * PRINT_SIDE + cx] += 0.299 * pixels[i] + 0.587 * pixels[i + 1] + 0.114 * pixels[i + 2];
      counts[cy * PRINT_SIDE + cx]++;
    }
  }
  return Uint8Array.from(sums, (s, i) => Math.round(s / Math.max(1, counts[i])));
}

/** A print as text (base64), as the server stores it and the phone keeps it. */
export const printToText = (print: Uint8Array): string => btoa(String.fromCharCode(...print));
export const printFromText = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

const N = PRINT_SIDE;

/** Bilinear sample of a print at (x, y) in pixel units (clamped to the edge). */
function sample(p: ArrayLike<number>, x: number, y: number): number {
  const x0 = Math.max(0, Math.min(N - 1, Math.floor(x)));
  const y0 = Math.max(0, Math.min(N - 1, Math.floor(y)));
  const x1 = Math.min(N - 1, x0 + 1);
  const y1 = Math.min(N - 1, y0 + 1);
  const fx = Math.max(0, Math.min(1, x - x0));
  const fy = Math.max(0, Math.min(1, y - y0));
  const top = p[y0 * N + x0] * (1 - fx) + p[y0 * N + x1] * fx;
  const bottom = p[y1 * N + x0] * (1 - fx) + p[y1 * N + x1] * fx;
  return top * (1 - fy) + bottom * fy;
}

/** An N×N grey image centred on its mean and scaled to unit length (so brightness and contrast drop out). */
function centred(grey: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(grey);
  let mean = 0;
  for (const v of out) mean += v / out.length;
  let norm = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] -= mean;
    norm += out[i] * out[i];
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < out.length; i++) out[i] *= scale;
  return out;
}

/** The detail of an N×N grey image: each pixel minus the mean of its (2r+1)² neighbourhood, centred and scaled. */
function band(grey: ArrayLike<number>, r = 2): Float64Array {
  const out = new Float64Array(N * N);
  for (let y = 0; y < N; y++) {
    for (let x = 0; x < N; x++) {
      let sum = 0;
      let count = 0;
      for (let yy = Math.max(0, y - r); yy <= Math.min(N - 1, y + r); yy++)
        for (let xx = Math.max(0, x - r); xx <= Math.min(N - 1, x + r); xx++) {
          sum += grey[yy * N + xx];
          count++;
        }
      out[y * N + x] = grey[y * N + x] - sum / count;
    }
  }
  return centred(out);
}

const mirror = (p: Uint8Array): Uint8Array =>
  Uint8Array.from(p, (_, i) => p[Math.floor(i / N) * N + (N - 1 - (i % N))]);

/** The best likeness of `partGrey` with any window of `whole` (scales SCALES, offsets on the grid). */
function bestWindow(whole: Uint8Array, partGrey: Uint8Array): number {
  const part = centred(partGrey);
  const partBand = band(partGrey);
  let best = -1;
  const window = new Float64Array(N * N);
  for (const scale of SCALES) {
    const side = scale * N;
    const steps = Math.round(N - side);
    for (let oy = 0; oy <= steps; oy++) {
      for (let ox = 0; ox <= steps; ox++) {
        const step = side / N;
        for (let y = 0; y < N; y++) {
          for (let x = 0; x < N; x++) {
            window[y * N + x] = sample(whole, ox + (x + 0.5) * step - 0.5, oy + (y + 0.5) * step - 0.5);
          }
        }
        const d = centred(window);
        let r = 0;
        for (let i = 0; i < d.length; i++) r += d[i] * part[i];
        // The detail only where the shapes could beat the best so far (it costs a blur).
        if (r > best) {
          const b = band(window);
          let rb = 0;
          for (let i = 0; i < b.length; i++) rb += b[i] * partBand[i];
          r = (r + rb) / 2;
        }
        if (r > best) best = r;
      }
    }
  }
  return best;
}

/** How alike two prints are: the best correlation over crops either way and the mirror image (−1..1). */
export function printLikeness(a: Uint8Array, b: Uint8Array): number {
  const mirrored = mirror(b);
  return Math.max(bestWindow(a, b), bestWindow(a, mirrored), bestWindow(b, a), bestWindow(mirrored, a));
}

/** Whether two prints show the same leaf (`SAME_LEAF_AT`). */
export const sameLeaf = (a: Uint8Array, b: Uint8Array, at = SAME_LEAF_AT): boolean => printLikeness(a, b) >= at;
