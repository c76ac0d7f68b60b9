/**
 * How much of the leaf shows rust (docs/decisions/0045): the share of leaf pixels that are
 * rust-coloured in the photo as the model sees it (squashed to its input size), and its band, read only on the
 * leaf in focus (`leaf-mask.ts`, docs/decisions/0060-leaf-mask). Pure TypeScript (no Node, no sharp) over the
 * model's 160×160 input, a few milliseconds per photo (bench/leaf-mask.ts), so the phone runs it too.
 *
 * It is colour, not the model's evidence: the heatmap does not point at pustules (0039), so it is not used.
 * The bands' cut points are not from an agronomic source (the vetted advice gives none); see the record.
 */

import type { SeverityCuts } from './card-settings.ts';
import { dropGaps } from './leaf-gaps.ts';
import { LEAF_CONFIDENCE, type LeafMask, leafMask } from './leaf-mask.ts';
import { scratch } from './scratch.ts';

export const SEVERITY_BANDS = ['low', 'moderate', 'severe'] as const;
export type SeverityBand = (typeof SEVERITY_BANDS)[number];

export interface Severity {
  /** Rust-coloured share of the leaf, 0..1. */
  share: number;
  band: SeverityBand;
}

/**
 * The band of a rust-coloured share at the card's cut points (`answer.severityCuts`: below `moderate` is low,
 * from `severe` up is severe; chosen on the 48 masked photos, docs/decisions/0045, so their agreement there is
 * optimistic).
 */
export function bandOf(share: number, cuts: SeverityCuts): SeverityBand {
  if (share >= cuts.severe) return 'severe';
  if (share >= cuts.moderate) return 'moderate';
  return 'low';
}

/**
 * Per crop, tuned on the 48 masked photos (decision 0045): bean pustules show with their yellow halo, so
 * their hue reaches further towards yellow, and bean photos have rust-coloured soil right up to the leaf,
 * so a rust-coloured pixel needs mostly green around it (`nearGreen`: share of the box that is green). Bean
 * pustules are small islands in green tissue: rust in a larger non-green stretch of the leaf, or one that runs to
 * its edge (soil between leaflets, a stalk), is not counted (`maxGap` pixels, `leaf-gaps.ts`, decision 0120).
 * Maize rust runs in long coalesced streaks, so maize has no such check.
 */
const RULES = {
  maize: { maxHue: 48, belowLeaf: 18, minSaturation: 0.3, value: [0.2, 0.92], nearGreen: 0.05, maxGap: null },
  beans: { maxHue: 66, belowLeaf: 12, minSaturation: 0.3, value: [0.2, 0.95], nearGreen: 0.55, maxGap: 40 },
} as const;
export type SeverityCrop = keyof typeof RULES;

/** The estimator's rules for the crop the farmer named: beans for beans, maize for maize, other or none. */
export const severityCropOf = (crop: string | null | undefined): SeverityCrop => (crop === 'beans' ? 'beans' : 'maize');

const GREEN = { hue: [60, 200], minSaturation: 0.1, minValue: 0.12 } as const;
/** Half-side of the box around a rust-coloured pixel, in pixels of a 160 px input. */
const NEAR = 4;

/**
 * Which pixels the estimate reads (RGB bytes, HWC, side×side): `kind` is 1 for a green leaf pixel, 3 for a
 * rust-coloured pixel counted as rust on the leaf, 2 for a rust-coloured one not counted (soil beside the
 * leaf, too yellow for this leaf), 0 otherwise; `greens` counts the 1s. The leaf: the leaf in focus (`leafMask`),
 * its green pixels plus counted rust-coloured ones (enough green around them: pustules on the leaf, not soil
 * beside it). Rust-coloured: orange to brown (or yellow-brown on beans), saturated, clearly yellower than the
 * leaf's median green. Null when there is too little leaf (under 2 % of the photo), or the leaf is found less
 * clearly than `leafCut` (the served card's `answer.leafConfidence`): the share could not be measured. `findLeaf` false reads the whole photo, as before the
 * leaf was found first (bench/leaf-mask.ts compares the two). `maxGap`: the crop's second check (null: none), given
 * otherwise only by `research/leaf-outlines/gap-halves.ts` to compare limits. The share and the outlined spots
 * (`spots.ts`) both come from this one reading.
 */
export function rustPixels(
  rgb: Uint8Array,
  side: number,
  crop: SeverityCrop = 'maize',
  findLeaf = true,
  leafCut = LEAF_CONFIDENCE,
  maxGap: number | null = RULES[crop].maxGap,
): { kind: Uint8Array; greens: number; rust: number; leaf: LeafMask | null } | null {
  const rule = RULES[crop];
  const n = side * side;
  const hue = scratch('rustPixels.hue', Float32Array, n);
  const kind = new Uint8Array(n);
  let greens = 0;
  for (let i = 0; i < n; i++) {
    const r = rgb[i * 3];
    const g = rgb[i * 3 + 1];
    const b = rgb[i * 3 + 2];
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const d = max - min;
    if (d === 0) continue;
    let h: number;
    if (max === r) h = ((g - b) / d) * 60;
    else if (max === g) h = ((b - r) / d + 2) * 60;
    else h = ((r - g) / d + 4) * 60;
    if (h < 0) h += 360;
    const s = d / max;
    const v = max / 255;
    hue[i] = h;
    if (h >= GREEN.hue[0] && h <= GREEN.hue[1] && s >= GREEN.minSaturation && v >= GREEN.minValue) {
      kind[i] = 1;
      greens++;
    } else if (h >= 5 && h <= rule.maxHue && s >= rule.minSaturation && v >= rule.value[0] && v <= rule.value[1]) {
      kind[i] = 2;
    }
  }
  if (greens < 0.02 * n) return null;
  // Only the leaf in focus is read: soil, dead leaves and blurred plants around it are not (leaf-mask.ts).
  const leaf = findLeaf ? leafMask(rgb, side, kind) : null;
  if (leaf && leaf.confidence < leafCut) return null;
  const hueCounts = new Uint32Array(361);
  greens = 0;
  for (let i = 0; i < n; i++)
    if (leaf && !leaf.mask[i]) {
      if (kind[i] === 1) kind[i] = 0;
    } else if (kind[i] === 1) {
      hueCounts[Math.round(hue[i])]++;
      greens++;
    }
  let seen = 0;
  let leafHue = 0;
  while (seen + hueCounts[leafHue] < greens / 2) seen += hueCounts[leafHue++];
  const maxRustHue = Math.min(rule.maxHue, leafHue - rule.belowLeaf);
  // Green pixels in the box around each pixel, from an integral image.
  const w = side + 1;
  const sum = scratch('rustPixels.sum', Uint32Array, w * w);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++)
      sum[(y + 1) * w + x + 1] =
        (kind[y * side + x] === 1 ? 1 : 0) + sum[(y + 1) * w + x] + sum[y * w + x + 1] - sum[y * w + x];
  let rust = 0;
  for (let y = 0; y < side; y++) {
    const y0 = Math.max(0, y - NEAR);
    const y1 = Math.min(side, y + NEAR + 1);
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      if (kind[i] !== 2 || hue[i] > maxRustHue) continue;
      const x0 = Math.max(0, x - NEAR);
      const x1 = Math.min(side, x + NEAR + 1);
      const near = sum[y1 * w + x1] - sum[y0 * w + x1] - sum[y1 * w + x0] + sum[y0 * w + x0];
      // Only inside the leaf, away from its edge: soil, stems and blur lie along it.
      if (leaf && !leaf.inner[i]) continue;
      if (near >= rule.nearGreen * (y1 - y0) * (x1 - x0)) {
        kind[i] = 3;
        rust++;
      }
    }
  }
  // The second check: only islands of colour inside the leaf, not its gaps (leaf-gaps.ts).
  if (leaf && maxGap !== null) rust -= dropGaps(kind, leaf.mask, side, maxGap);
  return { kind, greens, rust, leaf };
}

/**
 * The rust-coloured share of the leaf in RGB bytes (HWC, side×side): counted rust pixels (`rustPixels`) ÷
 * (green + counted rust). Null when there is too little leaf. `weight` (one per pixel) counts some
 * pixels more than others: the variants that gate by the heatmap (`cli/severity-variants.ts`) use it; the
 * served path does not (decision 0045: gating by this network's map made agreement worse).
 */
export function estimateSeverity(
  rgb: Uint8Array,
  side: number,
  crop: SeverityCrop = 'maize',
  weight?: Float32Array,
  leafCut = LEAF_CONFIDENCE,
): { share: number } | null {
  const read = rustPixels(rgb, side, crop, true, leafCut);
  return read && severityOfPixels(read, weight);
}

export function severityOfPixels(
  { kind, greens, rust }: { kind: Uint8Array; greens: number; rust: number },
  weight?: Float32Array,
): { share: number } {
  let share = rust / (greens + rust);
  if (weight) {
    let leaf = 0;
    let rusty = 0;
    for (let i = 0; i < kind.length; i++)
      if (kind[i] === 1) leaf += weight[i];
      else if (kind[i] === 3) rusty += weight[i];
    share = leaf + rusty > 0 ? rusty / (leaf + rusty) : 0;
  }
  return { share };
}

/**
 * A photo's rust-coloured share of the leaf as stored and shown: the model's own input (RGB, side×side) with
 * the rules for the farmer's crop. The server's `classify()` and the phone's offline diagnosis both call this,
 * so an answer made offline reads the same share as the server's for the same pixels. Null: too little leaf.
 */
export function rustShareOf(
  rgb: Uint8Array,
  side: number,
  crop?: string | null,
  leafCut = LEAF_CONFIDENCE,
): number | null {
  return estimateSeverity(rgb, side, severityCropOf(crop), undefined, leafCut)?.share ?? null;
}

/**
 * The least share a reading is shown as: a confident rust answer means the network saw rust, so a reading under
 * 1 % of the leaf says the colour rule missed the pustules (pale bean pustules, rust seen where the mask ends),
 * not that the leaf is clean. Below it the result says the share could not be measured, never "about 0 %".
 */
export const MEASURABLE_SHARE = 0.01;

const measured = (share: number | null | undefined): share is number => share != null && share >= MEASURABLE_SHARE;
const confidentRust = (answer: { outcome: string; rustClass: string | null; unsure: boolean }) =>
  answer.outcome === 'diagnosis' && answer.rustClass === 'common_rust' && !answer.unsure;

/**
 * A confident rust answer whose share could not be measured: the leaf was not told apart from what is around
 * it clearly enough (`leafMask`), there was too little of it, or the reading found under `MEASURABLE_SHARE` of it
 * rust-coloured. The result says so in words instead of a number, and rings no spots. The one place this rule
 * lives (the server's result, the phone's offline result).
 */
export function severityUnmeasured(
  answer: { outcome: string; rustClass: string | null; unsure: boolean },
  share: number | null | undefined,
): boolean {
  return confidentRust(answer) && !measured(share);
}

/**
 * The share of the leaf an answer shows (decision 0045): a confident rust answer's measured share (at least
 * `MEASURABLE_SHARE`); null for every other answer (a field where rust was seen on some leaves only shows none, though its mean is stored).
 * The one place this rule lives: the result (server and phone) and the follow-up's comparison read it.
 */
export function shownShare(
  answer: { outcome: string; rustClass: string | null; unsure: boolean },
  share: number | null | undefined,
): number | null {
  return confidentRust(answer) && measured(share) ? share : null;
}

/** The severity an answer shows (`shownShare`), banded at the served card's cuts; null when it shows none. */
export function shownSeverity(
  answer: { outcome: string; rustClass: string | null; unsure: boolean },
  share: number | null | undefined,
  cuts: SeverityCuts,
): Severity | null {
  const shown = shownShare(answer, share);
  return shown === null ? null : { share: shown, band: bandOf(shown, cuts) };
}
