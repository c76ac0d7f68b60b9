/**
 * The rust-coloured spots the severity estimate counted, as boxes to outline on the farmer's photo
 * (docs/decisions/0054). Pure TypeScript on the model's square input, so the server's `classify()` and the
 * phone's offline diagnosis draw the same spots from the same pixels.
 */
import { rustPixels, severityCropOf, severityOfPixels } from './severity.ts';

/**
 * Boxes `[x0, y0, x1, y1]` (x1, y1 exclusive) on the square model input of `side` pixels, which is the
 * photo squashed: a box covers x0/side..x1/side of the photo's width and y0/side..y1/side of its height.
 */
export interface RustSpots {
  side: number;
  /** The upright photo's width ÷ height, so a drawing can crop the boxes as it crops the photo. */
  aspect: number;
  boxes: [number, number, number, number][];
}

/**
 * Counted pixels closer than this (in pixels of the square input, Chebyshev) are one spot: a pustule's
 * pixels with a one-pixel gap stay together, and a cluster of pustules reads as one ring, not dozens.
 */
const JOIN = 2;
/** Smallest spot drawn, in counted pixels: smaller ones are mostly not on a pustule (decision 0054: 2 px: 74 % of spots on a pustule, 5 px: 86 %, pustule area outlined 71 % → 70 %). */
const MIN_PIXELS = 5;
/** At most this many spots (the largest): enough to show where, few enough to draw and send. */
export const MAX_SPOTS = 40;

/** Groups the counted rust pixels (`kind` 3 of `rustPixels`) into spots, largest first. */
export function spotsOfPixels(kind: Uint8Array, side: number, aspect = 1): RustSpots {
  const seen = new Uint8Array(kind.length);
  const stack: number[] = [];
  const found: { pixels: number; box: [number, number, number, number] }[] = [];
  for (let start = 0; start < kind.length; start++) {
    if (kind[start] !== 3 || seen[start]) continue;
    seen[start] = 1;
    stack.push(start);
    let pixels = 0;
    const box: [number, number, number, number] = [side, side, 0, 0];
    while (stack.length > 0) {
      const i = stack.pop() as number;
      const x = i % side;
      const y = (i - x) / side;
      pixels++;
      if (x < box[0]) box[0] = x;
      if (y < box[1]) box[1] = y;
      if (x + 1 > box[2]) box[2] = x + 1;
      if (y + 1 > box[3]) box[3] = y + 1;
      for (let ny = Math.max(0, y - JOIN); ny <= Math.min(side - 1, y + JOIN); ny++)
        for (let nx = Math.max(0, x - JOIN); nx <= Math.min(side - 1, x + JOIN); nx++) {
          const j = ny * side + nx;
          if (kind[j] === 3 && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    if (pixels >= MIN_PIXELS) found.push({ pixels, box });
  }
  found.sort((a, b) => b.pixels - a.pixels);
  return { side, aspect: Math.round(aspect * 1000) / 1000, boxes: found.slice(0, MAX_SPOTS).map((f) => f.box) };
}

/** The outlined spots of a photo's model input (RGB, side×side) with the farmer's crop's rules; null: too little leaf. */
export function rustSpots(rgb: Uint8Array, side: number, crop?: string | null, aspect = 1): RustSpots | null {
  const read = rustPixels(rgb, side, severityCropOf(crop));
  return read && spotsOfPixels(read.kind, side, aspect);
}

/**
 * The share (as `rustShareOf`) and the spots (as `rustSpots`) from one reading of the pixels: what
 * `classify()` and the phone's offline diagnosis call, so both cost one pass.
 */
export function rustReading(
  rgb: Uint8Array,
  side: number,
  crop?: string | null,
  aspect = 1,
): { share: number | null; spots: RustSpots | null } {
  const read = rustPixels(rgb, side, severityCropOf(crop));
  if (!read) return { share: null, spots: null };
  return { share: severityOfPixels(read).share, spots: spotsOfPixels(read.kind, side, aspect) };
}
