/**
 * Where the model saw a class, as the farmer is shown it: pure TypeScript (no Node, no sharp), so the
 * server's heatmap PNG and the phone's offline overlay come from the very same numbers
 * (docs/decisions/0039, heat-parity.test.ts).
 */
import { scratch } from './scratch.ts';

/** A normalised map (0 = cold, 1 = hottest) of high×wide cells over the square model input. */
export interface HeatGrid {
  values: Float32Array;
  high: number;
  wide: number;
}

/**
 * The class map's value at this share of its cells reads as cold (0) and at HOT_AT as hottest (1). Min–max
 * scaling made one outlying cell the whole picture; the median as the floor keeps the colder half of the
 * photo clear and lifts everything that stands out from it (pointing figures in the decision record).
 */
export const COLD_AT = 0.5;
export const HOT_AT = 0.99;

/**
 * The normalised map of one class from a `cam` output (N×K×h×w; batch item 0), or null when it is flat
 * (no region stands out).
 */
export function classHeat(cam: Float32Array, dims: readonly number[], classIndex: number): HeatGrid | null {
  const [, , high, wide] = dims;
  const cells = high * wide;
  const map = cam.subarray(classIndex * cells, (classIndex + 1) * cells);
  const sorted = Float32Array.from(map).sort();
  const at = (q: number) => sorted[Math.min(cells - 1, Math.floor(q * cells))];
  const lo = at(COLD_AT);
  const hi = at(HOT_AT);
  if (!(hi - lo > 1e-6)) return null;
  return { values: Float32Array.from(map, (v) => Math.min(1, Math.max(0, (v - lo) / (hi - lo)))), high, wide };
}

/**
 * The grid resampled to width×height pixels by bilinear interpolation between cell centres (cells stretch
 * with the photo's aspect ratio, as the square model input squashed it).
 */
export function resampleHeat(
  grid: HeatGrid,
  width: number,
  height: number,
  into = new Float32Array(width * height),
): Float32Array {
  const { values, high, wide } = grid;
  const out = into;
  for (let py = 0; py < height; py++) {
    const fy = Math.min(Math.max(((py + 0.5) / height) * high - 0.5, 0), high - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, high - 1);
    const wy = fy - y0;
    for (let px = 0; px < width; px++) {
      const fx = Math.min(Math.max(((px + 0.5) / width) * wide - 0.5, 0), wide - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, wide - 1);
      const wx = fx - x0;
      const top = (1 - wx) * values[y0 * wide + x0] + wx * values[y0 * wide + x1];
      const bottom = (1 - wx) * values[y1 * wide + x0] + wx * values[y1 * wide + x1];
      out[py * width + px] = (1 - wy) * top + wy * bottom;
    }
  }
  return out;
}

/** Longer side of the heatmap image; the shorter side keeps the analysed photo's aspect ratio. */
export const HEATMAP_SIDE = 224;
/** Below this heat a pixel is fully transparent, so only the regions that drove the answer show. */
const COLD = 0.3;
/** Opacity of the hottest pixels. */
const MAX_ALPHA = 0.75;

/** The heatmap image's size for a photo (upright, after EXIF rotation). */
export function heatmapSize(photoWidth: number, photoHeight: number) {
  const scale = HEATMAP_SIDE / Math.max(photoWidth, photoHeight, 1);
  return {
    width: Math.max(1, Math.round(photoWidth * scale)),
    height: Math.max(1, Math.round(photoHeight * scale)),
  };
}

/**
 * RGBA pixels of the overlay (width×height): transparent where cold, yellow to red where hot. Laid over
 * the photo in the same box (`object-fit: fill`), its cells line up with the photo's regions.
 */
export function heatRgba(
  grid: HeatGrid,
  width: number,
  height: number,
  into = new Uint8ClampedArray(width * height * 4),
): Uint8ClampedArray {
  const heat = resampleHeat(grid, width, height, scratch('heatRgba.heat', Float32Array, width * height));
  const rgba = into;
  for (let i = 0; i < width * height; i++) {
    const warm = Math.max(0, (heat[i] - COLD) / (1 - COLD));
    rgba[i * 4] = 255;
    rgba[i * 4 + 1] = Math.round(220 * (1 - warm));
    rgba[i * 4 + 2] = 0;
    rgba[i * 4 + 3] = Math.round(255 * MAX_ALPHA * Math.min(1, warm * 1.5));
  }
  return rgba;
}
