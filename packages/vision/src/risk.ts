/**
 * Risk and coverage of an unsure rule (docs/decisions/0038): for each crop, the share of photos given a confident
 * diagnosis (coverage) and the share of those confident answers that name the wrong class (risk). Pure:
 * it re-decides the outputs a model already gave, so every candidate cut costs no inference.
 */
import { CLASSES, decide, type DiagnosisCore, type RustClass, type Thresholds } from './decide.ts';

/** One scored leaf photo: what the model said (before any cut was applied again) and the truth. */
export interface ScoredPhoto {
  file: string;
  /** The crop named with the photo ('maize', 'beans', or 'unknown'). */
  crop: string;
  /** rust3's source (`plantdoc`, `ibean`, `plantvillage`), or 'unknown'. */
  source: string;
  truth: RustClass;
  output: Omit<DiagnosisCore, 'outcome' | 'rust_class' | 'confidence' | 'unsure'>;
}

/** An unsure rule: thresholds (over the card's) and, optionally, a minimum gap between the two likeliest classes. */
export interface UnsureRule {
  name: string;
  thresholds: Partial<Thresholds>;
  /** Unsure when the likeliest class leads the second by less than this (share among crop classes). */
  minMargin?: number;
}

export interface RiskPoint {
  photos: number;
  answered: number;
  wrong: number;
  /** answered / photos. */
  coverage: number;
  /** wrong / answered: how often a confident answer misleads (0 when nothing is answered). */
  risk: number;
  /** wrong / photos: the share of all photos that get a confident wrong answer. */
  wrongOfAll: number;
}

/** The targets for field photos from sources never trained on, per crop. */
export const RISK_TARGETS = { maxRisk: 0.03, minCoverage: 0.75 } as const;

/** What `decide` answers for this photo's outputs under `thresholds`. */
function decideAgain(photo: ScoredPhoto, thresholds: Thresholds) {
  const o = photo.output;
  const probs = [...CLASSES.map((c) => o.probabilities[c] * o.leaf_score), 1 - o.leaf_score];
  const colours = { plant: o.plant_fraction, green: o.green_fraction, contrast: o.contrast };
  return decide(probs, colours, thresholds, o.model_version, o.ood_score);
}

/** The answer `decide` gives this photo under `thresholds` (and the rule's margin): a class, or null when not confident. */
export function answerUnder(photo: ScoredPhoto, thresholds: Thresholds, minMargin = 0): RustClass | null {
  const o = photo.output;
  const d = decideAgain(photo, thresholds);
  if (d.outcome !== 'diagnosis' || d.unsure || !d.rust_class) return null;
  const [first, second] = CLASSES.map((c) => o.probabilities[c]).sort((a, b) => b - a);
  return first - second < minMargin ? null : d.rust_class;
}

/** Coverage and risk of a rule, per key (e.g. the crop, or `crop/source`). */
export function riskCoverage(
  photos: ScoredPhoto[],
  base: Thresholds,
  rule: UnsureRule,
  keyOf: (p: ScoredPhoto) => string = (p) => p.crop,
): Record<string, RiskPoint> {
  const thresholds = { ...base, ...rule.thresholds };
  const tally: Record<string, { photos: number; answered: number; wrong: number }> = {};
  for (const p of photos) {
    const key = keyOf(p);
    tally[key] ??= { photos: 0, answered: 0, wrong: 0 };
    const t = tally[key];
    const answer = answerUnder(p, thresholds, rule.minMargin);
    t.photos++;
    if (answer === null) continue;
    t.answered++;
    if (answer !== p.truth) t.wrong++;
  }
  return Object.fromEntries(
    Object.entries(tally)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, t]) => [
        k,
        {
          ...t,
          coverage: t.answered / t.photos,
          risk: t.answered ? t.wrong / t.answered : 0,
          wrongOfAll: t.wrong / t.photos,
        },
      ]),
  );
}

/** Whether a point meets the targets. */
export const meetsTargets = (p: RiskPoint) => p.risk <= RISK_TARGETS.maxRisk && p.coverage >= RISK_TARGETS.minCoverage;

/**
 * The candidate rules the model card's table compares: the served thresholds first, then each family of
 * cuts. Every candidate names its class-share cut (the margin and ood families at 0.5, the lowest), so a
 * row reads the same whatever the card serves; the card's other thresholds apply to all.
 */
export function candidateRules(served: Thresholds): UnsureRule[] {
  const rules: UnsureRule[] = [
    {
      name: `served (model.json: class share ≥ ${served.unsureBelow}, ood ≤ ${served.oodUnsureAbove})`,
      thresholds: {},
    },
  ];
  for (const cut of [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95])
    if (cut !== served.unsureBelow) rules.push({ name: `class share ≥ ${cut}`, thresholds: { unsureBelow: cut } });
  for (const m of [0.3, 0.5, 0.7, 0.8, 0.9])
    rules.push({ name: `margin top1−top2 ≥ ${m}`, thresholds: { unsureBelow: 0.5 }, minMargin: m });
  for (const ood of [3, 2, 1.5])
    rules.push({ name: `ood ≤ ${ood}`, thresholds: { unsureBelow: 0.5, oodUnsureAbove: ood } });
  for (const [cut, ood] of [
    [0.8, 2],
    [0.85, 2],
    [0.9, 2],
  ])
    rules.push({
      name: `class share ≥ ${cut} and ood ≤ ${ood}`,
      thresholds: { unsureBelow: cut, oodUnsureAbove: ood },
    });
  return rules;
}

export interface ReliabilityBin {
  /** Lower edge of the class share; the bin runs to the next bin's edge. */
  from: number;
  photos: number;
  right: number;
}

/**
 * How often the best guess is right at each level of confidence (its class share among the crop classes),
 * per key, over the photos given a crop diagnosis under `thresholds` (confident or unsure; "not a leaf" is
 * left out).
 */
export function reliability(
  photos: ScoredPhoto[],
  thresholds: Thresholds,
  keyOf: (p: ScoredPhoto) => string = (p) => p.crop,
  edges: readonly number[] = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95],
): Record<string, ReliabilityBin[]> {
  const out: Record<string, ReliabilityBin[]> = {};
  for (const p of photos) {
    const d = decideAgain(p, thresholds);
    if (d.outcome !== 'diagnosis') continue;
    const key = keyOf(p);
    out[key] ??= edges.map((from) => ({ from, photos: 0, right: 0 }));
    const bin = out[key].findLast((b) => d.confidence >= b.from) ?? out[key][0];
    bin.photos++;
    if (d.rust_class === p.truth) bin.right++;
  }
  return out;
}
