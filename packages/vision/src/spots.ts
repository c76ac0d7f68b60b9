/**
 * The rust-coloured spots the severity estimate counted, as boxes to outline on the farmer's photo
 * (docs/decisions/0054). Pure TypeScript on the model's square input, so the server's `classify()` and the
 * phone's offline diagnosis draw the same spots from the same pixels.
 */
import { LEAF_CONFIDENCE } from './leaf-mask.ts';
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
/** Smallest spot drawn, in counted pixels: smaller ones fall off the pustules more often (decision 0054). */
const MIN_PIXELS = 5;
/** A spot wider or taller than this (pixels of a 160 px input) is ringed tile by tile, in tiles of this side. */
const TILE = 12;
/** At most this many spots (the largest): enough to show where, few enough to draw and send. */
export const MAX_SPOTS = 60;

/** Groups the counted rust pixels (`kind` 3 of `rustPixels`) into spots, largest first. */
export function spotsOfPixels(kind: Uint8Array, side: number, aspect = 1): RustSpots {
  const seen = new Uint8Array(kind.length);
  const stack: number[] = [];
  const found: { pixels: number; box: [number, number, number, number] }[] = [];
  const spot = () => ({ pixels: 0, box: [side, side, 0, 0] as [number, number, number, number] });
  const add = (s: ReturnType<typeof spot>, x: number, y: number) => {
    s.pixels++;
    if (x < s.box[0]) s.box[0] = x;
    if (y < s.box[1]) s.box[1] = y;
    if (x + 1 > s.box[2]) s.box[2] = x + 1;
    if (y + 1 > s.box[3]) s.box[3] = y + 1;
  };
  for (let start = 0; start < kind.length; start++) {
    if (kind[start] !== 3 || seen[start]) continue;
    seen[start] = 1;
    stack.push(start);
    const members: number[] = [];
    const whole = spot();
    while (stack.length > 0) {
      const i = stack.pop() as number;
      const x = i % side;
      const y = (i - x) / side;
      members.push(i);
      add(whole, x, y);
      for (let ny = Math.max(0, y - JOIN); ny <= Math.min(side - 1, y + JOIN); ny++)
        for (let nx = Math.max(0, x - JOIN); nx <= Math.min(side - 1, x + JOIN); nx++) {
          const j = ny * side + nx;
          if (kind[j] === 3 && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    const [x0, y0, x1, y1] = whole.box;
    if (x1 - x0 <= TILE && y1 - y0 <= TILE) {
      if (whole.pixels >= MIN_PIXELS) found.push(whole);
      continue;
    }
    // A large patch of rust: one ring per tile of it, so the rings stay on the rust instead of one ring
    // around half the leaf.
    const tiles = new Map<number, ReturnType<typeof spot>>();
    for (const i of members) {
      const x = i % side;
      const y = (i - x) / side;
      const key = Math.floor(y / TILE) * side + Math.floor(x / TILE);
      const tile = tiles.get(key) ?? spot();
      tiles.set(key, tile);
      add(tile, x, y);
    }
    for (const tile of tiles.values()) if (tile.pixels >= MIN_PIXELS) found.push(tile);
  }
  found.sort((a, b) => b.pixels - a.pixels);
  return { side, aspect: Math.round(aspect * 1000) / 1000, boxes: found.slice(0, MAX_SPOTS).map((f) => f.box) };
}

/**
 * The outlined spots of a photo's model input (RGB, side×side) with the farmer's crop's rules; null: too little
 * leaf, or the leaf not found at least `leafCut` clearly (the card's `answer.leafConfidence` where it is served).
 */
export function rustSpots(
  rgb: Uint8Array,
  side: number,
  crop?: string | null,
  aspect = 1,
  leafCut = LEAF_CONFIDENCE,
): RustSpots | null {
  const read = rustPixels(rgb, side, severityCropOf(crop), true, leafCut);
  return read && spotsOfPixels(read.kind, side, aspect);
}

/**
 * The share (as `rustShareOf`) and the spots (as `rustSpots`) from one reading of the pixels: what
 * `classify()` and the phone's offline diagnosis call, so both cost one pass. `leafCut`: the served card's
 * `answer.leafConfidence` (`cardSettings`); below it both are null, and for a field of another crop.
 */
export function rustReading(
  rgb: Uint8Array,
  side: number,
  crop: string | null | undefined,
  aspect: number,
  leafCut: number,
): { share: number | null; spots: RustSpots | null } {
  // Another crop's field (wheat, a crop Kutu has no colour rules for): no cut was shown right on its photos.
  if (crop === 'other') return { share: null, spots: null };
  const read = rustPixels(rgb, side, severityCropOf(crop), true, leafCut);
  if (!read) return { share: null, spots: null };
  return { share: severityOfPixels(read).share, spots: spotsOfPixels(read.kind, side, aspect) };
}
