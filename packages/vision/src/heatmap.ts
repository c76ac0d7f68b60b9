import sharp from 'sharp';

/** Longer side of the heatmap PNG; the shorter side keeps the analysed photo's aspect ratio. */
export const HEATMAP_SIDE = 224;
/** Below this normalised heat a pixel is fully transparent, so only the regions that drove the answer show. */
const COLD = 0.3;
/** Opacity of the hottest pixels. */
const MAX_ALPHA = 0.75;

/**
 * Normalised class activation map (0 = coldest, 1 = hottest cell) of one class, from the model's `cam`
 * output (N×K×h×w, batch item 0). Returns null when the map is flat (no region stands out).
 */
export function normaliseCam(cam: Float32Array, classIndex: number, cells: number): Float32Array | null {
  const map = cam.subarray(classIndex * cells, (classIndex + 1) * cells);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of map) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!(max - min > 1e-6)) return null;
  return Float32Array.from(map, (v) => (v - min) / (max - min));
}

/**
 * A colourised, mostly transparent PNG of a class activation map (h×w cells over the square model input),
 * stretched smoothly to the photo's aspect ratio: transparent where cold, yellow to red where hot. Laid
 * over the photo with CSS (same box, `object-fit: fill`), its cells line up with the photo's regions.
 */
export async function heatmapPng(
  heat: Float32Array,
  cellsHigh: number,
  cellsWide: number,
  photoWidth: number,
  photoHeight: number,
): Promise<Buffer> {
  const scale = HEATMAP_SIDE / Math.max(photoWidth, photoHeight, 1);
  const width = Math.max(1, Math.round(photoWidth * scale));
  const height = Math.max(1, Math.round(photoHeight * scale));
  const grey = Buffer.from(Array.from(heat, (v) => Math.round(v * 255)));
  const smooth = await sharp(grey, { raw: { width: cellsWide, height: cellsHigh, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const rgba = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const t = smooth[i] / 255;
    const warm = Math.max(0, (t - COLD) / (1 - COLD));
    rgba[i * 4] = 255;
    rgba[i * 4 + 1] = Math.round(220 * (1 - warm));
    rgba[i * 4 + 2] = 0;
    rgba[i * 4 + 3] = Math.round(255 * MAX_ALPHA * Math.min(1, warm * 1.5));
  }
  return sharp(rgba, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}
