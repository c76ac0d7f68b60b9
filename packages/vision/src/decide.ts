/**
 * The model's answer turned into a diagnosis: pure TypeScript with no Node or native imports, so the
 * server and the phone's offline diagnosis apply the very same rules and thresholds.
 */

export const CLASSES = ['common_rust', 'healthy', 'other_disease'] as const;
export type RustClass = (typeof CLASSES)[number];

export interface Thresholds {
  /** At or above this probability of "not a leaf" the photo gets no crop diagnosis. */
  notLeaf: number;
  /** A diagnosis whose confidence (among the crop classes) is below this is marked unsure. */
  unsureBelow: number;
  /** Also unsure when the "not a leaf" probability is above this. */
  unsureNotLeafAbove: number;
  /** Below this share of plant-coloured pixels (green, yellow, brown) the photo cannot be a leaf. */
  minPlantFraction: number;
  /**
   * Below this share of green pixels (hue 50–170°) the photo cannot be a leaf: diseased leaves still show
   * some green; faces, fur, wood and rooms mostly do not. 0.005 rejects 2 of the 4,722 rust3 photos.
   */
  minGreenFraction: number;
  /** Below this standard deviation of brightness (0..1) the photo is blank or a solid colour. */
  minContrast: number;
  /**
   * Out-of-distribution score (the model's `ood` output: distance of the photo's features to the nearest
   * leaf class, about 1 for typical training leaves) above which the diagnosis is marked unsure.
   */
  oodUnsureAbove: number;
  /** Above this out-of-distribution score the photo is answered "not a leaf". */
  oodNotLeafAbove: number;
}

/**
 * Every threshold a model card must give. There are no defaults: each model's cuts live in its own
 * model.json (`thresholds`), chosen on its own validation (MODEL_CARD.md, "Risk and coverage"), so the
 * server, the phone and the evaluation all read the same numbers. JSON has no Infinity: null means "off".
 */
export const THRESHOLD_KEYS = [
  'notLeaf',
  'unsureBelow',
  'unsureNotLeafAbove',
  'minPlantFraction',
  'minGreenFraction',
  'minContrast',
  'oodUnsureAbove',
  'oodNotLeafAbove',
] as const satisfies readonly (keyof Thresholds)[];

export interface ModelCard {
  version: string;
  input_size: number;
  classes: string[];
  /** The model's own cuts, every one of THRESHOLD_KEYS (null: off). */
  thresholds?: { [K in keyof Thresholds]?: number | null };
  /** How the answer is made from the model's outputs (`AnswerSettings`, read by `cardSettings`). */
  answer?: unknown;
  /** A KutuLeafNet's backbone name (packages/vision/src/train.ts, backboneName): what its frozen features depend on. */
  backbone?: string;
  [key: string]: unknown;
}

/** A diagnosis before its heatmap is drawn (what `decide` returns). */
export interface DiagnosisCore {
  outcome: 'diagnosis' | 'not_leaf';
  rust_class: RustClass | null;
  /** Confidence in the answer given: the class's share among crop classes, or the not-a-leaf probability. */
  confidence: number;
  unsure: boolean;
  probabilities: Record<RustClass, number>;
  /** The model's probability that the photo shows a leaf at all (1 − P(not a leaf)). */
  leaf_score: number;
  /** Share of plant-coloured pixels in the photo. */
  plant_fraction: number;
  /** Share of green pixels in the photo. */
  green_fraction: number;
  /** Standard deviation of brightness (0..1); near 0 for blank images. */
  contrast: number;
  /** How far the photo lies from the leaves the model was trained on (about 1 is typical); null if the model has no such output. */
  ood_score: number | null;
  model_version: string;
}

export interface ColourStats {
  /** Share of pixels whose colour could belong to a leaf: green through yellow to rust-brown, not grey. */
  plant: number;
  /** Share of clearly green pixels (hue 50–170°). */
  green: number;
  /** Standard deviation of brightness, 0..1. */
  contrast: number;
}

/** Colour statistics of HWC RGB bytes, used to refuse photos that cannot show a leaf. */
export function colourStats(rgb: Uint8Array): ColourStats {
  let plant = 0;
  let green = 0;
  let sum = 0;
  let sumSq = 0;
  const pixels = rgb.length / 3;
  for (let i = 0; i < rgb.length; i += 3) {
    const r = rgb[i] / 255;
    const g = rgb[i + 1] / 255;
    const b = rgb[i + 2] / 255;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    sum += y;
    sumSq += y * y;
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const delta = max - min;
    if (max < 0.1 || delta / max < 0.15) continue;
    let hue: number;
    if (max === r) hue = ((g - b) / delta) * 60;
    else if (max === g) hue = ((b - r) / delta + 2) * 60;
    else hue = ((r - g) / delta + 4) * 60;
    if (hue < 0) hue += 360;
    if (hue >= 10 && hue <= 170) plant++;
    if (hue >= 50 && hue <= 170) green++;
  }
  const mean = sum / pixels;
  return {
    plant: plant / pixels,
    green: green / pixels,
    contrast: Math.sqrt(Math.max(0, sumSq / pixels - mean * mean)),
  };
}

/** Share of pixels whose colour could belong to a leaf: green through yellow to rust-brown, not grey. */
export function plantFraction(rgb: Uint8Array): number {
  return colourStats(rgb).plant;
}

export function softmax(logits: ArrayLike<number>): number[] {
  const max = Math.max(...Array.from(logits));
  const exps = Array.from(logits, (v) => Math.exp(v - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/**
 * Turns the four probabilities into an honest answer. A photo is "not a leaf" when the model says so with
 * probability ≥ `notLeaf`, or when its colours rule a leaf out (blank, no plant colours, no green at all).
 */
export function decide(
  probs: number[],
  colours: ColourStats | number,
  t: Thresholds,
  version: string,
  oodScore: number | null = null,
): DiagnosisCore {
  const stats: ColourStats = typeof colours === 'number' ? { plant: colours, green: 1, contrast: 1 } : colours;
  const pNotLeaf = probs[3] ?? 0;
  const leafMass = Math.max(1 - pNotLeaf, 1e-9);
  const probabilities = Object.fromEntries(CLASSES.map((c, i) => [c, probs[i] / leafMass])) as Record<
    RustClass,
    number
  >;
  const base = {
    probabilities,
    leaf_score: 1 - pNotLeaf,
    plant_fraction: stats.plant,
    green_fraction: stats.green,
    contrast: stats.contrast,
    ood_score: oodScore,
    model_version: version,
  };
  const ood = oodScore ?? 0;
  // 1 when every colour check passes; below 1 by how far the weakest one falls short.
  const gate = Math.min(
    1,
    stats.plant / t.minPlantFraction,
    stats.green / t.minGreenFraction,
    stats.contrast / t.minContrast,
  );
  if (pNotLeaf >= t.notLeaf || gate < 1 || ood > t.oodNotLeafAbove) {
    return { ...base, outcome: 'not_leaf', rust_class: null, confidence: Math.max(pNotLeaf, 1 - gate), unsure: false };
  }
  let best: RustClass = CLASSES[0];
  for (const c of CLASSES) if (probabilities[c] > probabilities[best]) best = c;
  const confidence = probabilities[best];
  const unsure = confidence < t.unsureBelow || pNotLeaf > t.unsureNotLeafAbove || ood > t.oodUnsureAbove;
  return { ...base, outcome: 'diagnosis', rust_class: best, confidence, unsure };
}

/** Cuts a model may leave out (or give as null), meaning off: a model with no ood output has no ood cut. */
const OPTIONAL_THRESHOLDS: readonly (keyof Thresholds)[] = ['oodUnsureAbove', 'oodNotLeafAbove'];

/**
 * The thresholds a model card gives (null: off). Throws when the card lacks one: there is no default to fall
 * back on, except "off" for the ood cuts (the phone drops null values before it asks).
 */
export function thresholdsOf(card: Pick<ModelCard, 'thresholds'> & { version?: string }): Thresholds {
  const given = card.thresholds ?? {};
  const missing = THRESHOLD_KEYS.filter((k) => given[k] === undefined && !OPTIONAL_THRESHOLDS.includes(k));
  if (missing.length) {
    throw new Error(
      `model.json${card.version ? ` of ${card.version}` : ''} gives no thresholds.${missing.join(', thresholds.')}: every model card holds all its own cuts (null means off)`,
    );
  }
  return Object.fromEntries(
    THRESHOLD_KEYS.map((k) => [k, typeof given[k] === 'number' ? given[k] : Number.POSITIVE_INFINITY]),
  ) as unknown as Thresholds;
}
