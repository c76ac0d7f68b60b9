/**
 * The leaf in focus, found before the rust share is read and the spots are ringed (docs/decisions/0060-leaf-mask,
 * 0081-one-leaf-or-no-rings): leaf-coloured pixels (green, pale leaf, pustules crowded among green) that are in
 * focus, closed over small gaps, then parted into leaves where the light steps (one leaf over another, a shadow)
 * and where leaves touch through a neck; the largest near the centre is the leaf, its enclosed holes (pustules,
 * lesions) filled in. Rust counts only inside it, away from its edge. Its `confidence` says how clearly it stands
 * apart; below the card's cut (`answer.leafConfidence`) nothing is ringed and the share is not measured.
 * Pure TypeScript on the model's square input (the same pixels the server and the phone already read); focus and
 * colour are read per pixel, the shape on 2×2 blocks: a few milliseconds a photo
 * (bench/reports/0081-one-leaf-or-no-rings.md).
 */
import {
  boxSums,
  lightEdges,
  paleLeaf,
  quantile,
  SHARP_ENOUGH,
  SHARP_FLOOR,
  SHARP_NEAR,
  SHARP_SHARE,
  sharpness,
} from './leaf-focus.ts';
import { scratch } from './scratch.ts';
import { distanceInside, morph, partLeaves, regions } from './leaf-shape.ts';

/** The cut the recipe used before the card held one (`RECIPE_ANSWER.leafConfidence`). */
export const LEAF_CONFIDENCE = 0.5;

export interface LeafMask {
  /** 1 inside the leaf, side×side. */
  mask: Uint8Array;
  /** Leaf pixels ÷ all pixels. */
  area: number;
  /** 1 where a rust-coloured pixel may count: inside the leaf, at least EDGE pixels from its edge. */
  inner: Uint8Array;
  /** 0..1: how clearly one leaf stands out (the least of `measures`, each scaled). */
  confidence: number;
  /** What the confidence is made of. */
  measures: LeafMeasures;
}

/** How the leaf found stands out, each 0..1. */
export interface LeafMeasures {
  /** The leaf's share of the photo. */
  size: number;
  /** Its share of all the sharp leaf-coloured pixels. */
  holds: number;
  /** Its share that is sharp and leaf-coloured (the rest: gaps and holes filled in). */
  pure: number;
  /** Share of its edge where it was parted from other leaves rather than meeting the background. */
  parted: number;
}

/** A rust-coloured pixel is taken as leaf when this share of its 9×9 box is green. */
const MIXED_GREEN = 0.2;
/** The shape is found on blocks of STEP×STEP pixels: a quarter of the work, and a leaf is many blocks wide. */
const STEP = 2;
/** Closing (fills gaps: pustules, veins), in pixels of a 160 px input. */
const CLOSE = 4;
/**
 * Two parts are one leaf when they meet across at least this share of the larger one's width (its distance from
 * middle to edge): a leaf seen as two bumps. A smaller part hanging on through a neck (a stem, a weed, another
 * leaf) is not the leaf.
 */
const JOIN = 0.6;
/** Blocks the leaf grows back over its own edge, taken out with the steps of light, without entering another leaf. */
const GROW_BACK = 2;
/** Rust counts this many pixels (of a 160 px input) inside the leaf's edge: soil, stems and blur lie along it. */
const EDGE = 4;
/** Holes enclosed by the leaf are filled when smaller than this share of it (bigger ones: background seen through). */
const HOLE_SHARE = 0.5;

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);
const NO_LEAF: LeafMeasures = { size: 0, holds: 0, pure: 0, parted: 1 };

/**
 * The leaf in focus in RGB bytes (HWC, side×side), given which pixels are leaf-green (`kind` 1) and which
 * rust-coloured (`kind` 2), as `rustPixels` reads them.
 * Always returns a mask; its `confidence` says whether it is one leaf clearly enough to measure on.
 */
export function leafMask(rgb: Uint8Array, side: number, kind: Uint8Array): LeafMask {
  const n = side * side;
  const green = scratch('leafMask.green', Uint8Array, n);
  for (let i = 0; i < n; i++) green[i] = kind[i] === 1 ? 1 : 0;
  // Focus over 3×3 as well: the 9 px box alone reads blur within 4 px of a sharp leaf as sharp.
  const [sharp, fine] = sharpness(rgb, side, [SHARP_NEAR, 1]);
  const top = quantile(sharp, green, 0.9);
  const floor = top >= SHARP_FLOOR ? Math.min(SHARP_SHARE * top, SHARP_ENOUGH) : 0;
  const greenIn = boxSums(green, side, 'leafMask.greenIn');
  // The shape is found on a grid of step×step blocks; a block is leaf-coloured when half its pixels are.
  const step = side % STEP === 0 && side >= 96 ? STEP : 1;
  const w = side / step;
  const m = w * w;
  const votes = new Uint8Array(m);
  for (let y = 0; y < side; y++) {
    const blockRow = Math.floor(y / step) * w;
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
      votes[blockRow + Math.floor(x / step)]++;
    }
  }
  const candidate = new Uint8Array(m);
  let candidates = 0;
  for (let j = 0; j < m; j++) {
    candidate[j] = 2 * votes[j] >= step * step ? 1 : 0;
    candidates += candidate[j];
  }
  const blocks = (px: number) => Math.max(1, Math.round(px / step));
  const closed = morph(morph(candidate, w, blocks(CLOSE), true), w, blocks(CLOSE), false);
  const edges = lightEdges(rgb, side, step, closed);
  const apart = new Uint8Array(m);
  for (let j = 0; j < m; j++) apart[j] = closed[j] & (1 - edges[j]);
  const { label, parts } = partLeaves(apart, w, distanceInside(apart, w), JOIN);
  // The leaf: the largest part, counted less the farther it lies from the centre.
  const centre = (w - 1) / 2;
  let best = -1;
  let bestScore = 0;
  parts.forEach((part, k) => {
    let cx = 0;
    let cy = 0;
    for (const j of part.pixels) {
      cx += j % w;
      cy += Math.floor(j / w);
    }
    const off = Math.hypot(cx / part.pixels.length - centre, cy / part.pixels.length - centre) / (centre * Math.SQRT2);
    const score = part.pixels.length * (1 - 0.5 * off);
    if (score > bestScore) [best, bestScore] = [k, score];
  });
  if (best < 0) {
    const none = new Uint8Array(n);
    return { mask: none, inner: none, area: 0, confidence: 0, measures: NO_LEAF };
  }
  let leaf: Uint8Array = new Uint8Array(m);
  for (const j of parts[best].pixels) leaf[j] = 1;
  for (let k = 0; k < GROW_BACK; k++) {
    const grown = morph(leaf, w, 1, true);
    for (let j = 0; j < m; j++) if (grown[j] && closed[j] && !label[j]) leaf[j] = 1;
  }
  leaf = fillHoles(leaf, w);
  let area = 0;
  let held = 0;
  // Its edge: where it meets the background, and where it was parted from other leaves.
  let edge = 0;
  let parted = 0;
  const meet = (k: number) => {
    if (leaf[k]) return;
    edge++;
    if (label[k]) parted++;
  };
  for (let j = 0; j < m; j++) {
    if (!leaf[j]) continue;
    area++;
    held += candidate[j];
    const x = j % w;
    if (j >= w) meet(j - w);
    if (j < m - w) meet(j + w);
    if (x > 0) meet(j - 1);
    if (x < w - 1) meet(j + 1);
  }
  const measures: LeafMeasures = {
    size: area / m,
    holds: held / Math.max(1, candidates),
    pure: held / area,
    parted: edge ? parted / edge : 0,
  };
  // One clear leaf: big enough (full at 8 % of the photo), holding a good part of the sharp green (not one of
  // many scattered bits), mostly leaf-coloured itself (not filled-in gaps), and meeting the background along most
  // of its edge (a leaf cut out of a mass of leaves may be the wrong cut).
  const confidence = Math.min(
    clamp01((measures.size - 0.03) / 0.05),
    clamp01((measures.holds - 0.15) / 0.25),
    clamp01((measures.pure - 0.3) / 0.3),
    clamp01((0.9 - measures.parted) / 0.2),
  );
  const innerBlocks = morph(leaf, w, blocks(EDGE), false);
  const mask = new Uint8Array(n);
  const inner = new Uint8Array(n);
  for (let y = 0; y < side; y++) {
    const blockRow = Math.floor(y / step) * w;
    for (let x = 0; x < side; x++) {
      const j = blockRow + Math.floor(x / step);
      mask[y * side + x] = leaf[j];
      inner[y * side + x] = innerBlocks[j];
    }
  }
  return { mask, inner, area: area / m, confidence, measures };
}

/** The mask with its holes filled: regions outside it that do not reach the edge, when small (`HOLE_SHARE`). */
function fillHoles(leaf: Uint8Array, w: number): Uint8Array {
  const m = w * w;
  let area = 0;
  for (let j = 0; j < m; j++) area += leaf[j];
  const filled = leaf.slice();
  const outside = new Uint8Array(m);
  for (let j = 0; j < m; j++) outside[j] = 1 - leaf[j];
  for (const pixels of regions(w, outside).members) {
    if (pixels.length > HOLE_SHARE * area) continue;
    const atEdge = pixels.some((j) => j < w || j >= m - w || j % w === 0 || j % w === w - 1);
    if (!atEdge) for (const j of pixels) filled[j] = 1;
  }
  return filled;
}
