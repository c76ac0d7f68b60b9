/**
 * The model's input from decoded pixels, in pure TypeScript (no sharp, no Node): the server decodes and
 * resizes with sharp; the phone's offline diagnosis decodes with the browser and resizes here, with the
 * same Lanczos-3 filter, then both normalise with `toTensorData`. `preprocess-parity.test.ts` measures
 * how close the two tensors are for the committed photos.
 */

/** The model's input side in pixels; training crops are taken to this size too. */
export const INPUT_SIZE = 128;
/** ImageNet statistics, used by the trainer as well. */
export const MEAN = [0.485, 0.456, 0.406] as const;
export const STD = [0.229, 0.224, 0.225] as const;

/** Each channel's normalised value of each byte, as `toTensorData` stores it (float32). */
const NORMALISED = [0, 1, 2].map((c) => Float32Array.from({ length: 256 }, (_, v) => (v / 255 - MEAN[c]) / STD[c]));

/** HWC bytes → normalised CHW float32, the ONNX model's input; written `into` an array of 3·size² when given. */
export function toTensorData(rgb: Uint8Array, size: number, into?: Float32Array): Float32Array {
  const plane = size * size;
  const out = into ?? new Float32Array(3 * plane);
  // A byte's value looked up, the three channels written in one pass: the same float32 numbers as
  // (byte / 255 − mean) / std computed for each pixel, several times faster.
  const [r, g, b] = NORMALISED;
  for (let i = 0, p = 0; i < plane; i++, p += 3) {
    out[i] = r[rgb[p]];
    out[plane + i] = g[rgb[p + 1]];
    out[2 * plane + i] = b[rgb[p + 2]];
  }
  return out;
}

function lanczos3(x: number): number {
  if (x === 0) return 1;
  if (x <= -3 || x >= 3) return 0;
  const px = Math.PI * x;
  return (3 * Math.sin(px) * Math.sin(px / 3)) / (px * px);
}

/** For each output position: the first input index and the normalised filter weights. */
function filterTaps(inSize: number, outSize: number): { start: Int32Array; weights: Float32Array[] } {
  const scale = inSize / outSize;
  // Downscaling widens the kernel by the scale, so every input pixel counts (antialiasing).
  const stretch = Math.max(scale, 1);
  const support = 3 * stretch;
  const start = new Int32Array(outSize);
  const weights: Float32Array[] = [];
  for (let i = 0; i < outSize; i++) {
    const centre = (i + 0.5) * scale;
    const from = Math.max(0, Math.floor(centre - support));
    const to = Math.min(inSize, Math.ceil(centre + support));
    const w = new Float32Array(to - from);
    let sum = 0;
    for (let j = from; j < to; j++) {
      w[j - from] = lanczos3((j + 0.5 - centre) / stretch);
      sum += w[j - from];
    }
    for (let k = 0; k < w.length; k++) w[k] /= sum;
    start[i] = from;
    weights.push(w);
  }
  return { start, weights };
}

const toByte = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

/**
 * Decoded RGBA (any size, already upright) → size×size RGB bytes (HWC) the way the server's sharp
 * pipeline makes them: alpha flattened onto white, squashed (not cropped) with Lanczos-3, rounded to
 * bytes after each pass as libvips does for 8-bit images.
 */
export function rgbaToModelRgb(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, size: number) {
  const flat = new Uint8Array(width * height * 3);
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
    const a = rgba[i + 3] / 255;
    for (let c = 0; c < 3; c++) flat[o + c] = toByte(rgba[i + c] * a + 255 * (1 - a));
  }
  // Horizontal pass: width → size, for every row.
  const h = filterTaps(width, size);
  const rows = new Uint8Array(size * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < size; x++) {
      const w = h.weights[x];
      const from = h.start[x];
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < w.length; k++) {
        const p = (y * width + from + k) * 3;
        r += flat[p] * w[k];
        g += flat[p + 1] * w[k];
        b += flat[p + 2] * w[k];
      }
      const o = (y * size + x) * 3;
      rows[o] = toByte(r);
      rows[o + 1] = toByte(g);
      rows[o + 2] = toByte(b);
    }
  }
  // Vertical pass: height → size.
  const v = filterTaps(height, size);
  const out = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    const w = v.weights[y];
    const from = v.start[y];
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < w.length; k++) {
        const p = ((from + k) * size + x) * 3;
        r += rows[p] * w[k];
        g += rows[p + 1] * w[k];
        b += rows[p + 2] * w[k];
      }
      const o = (y * size + x) * 3;
      out[o] = toByte(r);
      out[o + 1] = toByte(g);
      out[o + 2] = toByte(b);
    }
  }
  return out;
}
