/**
 * One answer for a field from several of its leaves (docs/decisions/0040, 0048). Pure TypeScript: the
 * server's field answer and the phone's offline answer call the same function with the same card.
 */
import { CLASSES, type DiagnosisCore, decide, type RustClass, type Thresholds } from './decide.ts';

/** What one leaf of the field told the model. */
export interface LeafEvidence {
  /** Class shares among the crop classes (they sum to 1). */
  probabilities: Partial<Record<RustClass, number>>;
  /** 1 − P(not a leaf); null for photos from before it was kept (counted as a leaf). */
  leafScore: number | null;
  /** Out-of-distribution score; null when the model has none (left out of the mean). */
  oodScore: number | null;
}

/**
 * How the leaves' evidence adds up. Each leaf's log class shares are summed and the sum multiplied by
 * this temper before normalising: 1 would treat the leaves as independent witnesses, but leaves of one
 * field (one variety, one light, one phone) are alike, so each extra leaf counts for less. Agreeing leaves
 * make a surer answer, disagreeing ones a less sure one. Chosen on the repository's field photos by
 * source (decision 0048, packages/vision/research/fieldcombine/): `'mean'` is the rule before it (the
 * mean of the leaves' shares), kept for comparison.
 */
export const FIELD_TEMPER = 0.6;
export type FieldRule = number | 'mean';

/** Shares below this count as this (a share of exactly 0 would veto a class for the whole field). */
const FLOOR = 1e-6;

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** The field's class shares from its leaves' (one leaf: its own shares, whatever the rule). */
export function combineShares(leaves: LeafEvidence['probabilities'][], rule: FieldRule = FIELD_TEMPER): number[] {
  if (leaves.length === 0) throw new Error('A field answer needs at least one leaf');
  const shares = (c: RustClass) => leaves.map((p) => p[c] ?? 0);
  if (leaves.length === 1 || rule === 'mean') return CLASSES.map((c) => mean(shares(c)));
  const logits = CLASSES.map((c) => rule * shares(c).reduce((sum, p) => sum + Math.log(Math.max(p, FLOOR)), 0));
  const top = Math.max(...logits);
  const exps = logits.map((l) => Math.exp(l - top));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

/**
 * Every leaf passed the colour checks before it joined (a photo with no leaf is refused), so the field
 * is never "not a leaf" for colour reasons.
 */
const LEAF_COLOURS = { plant: 1, green: 1, contrast: 1 };

/**
 * The field's diagnosis: the combined class shares (`combineShares`), the mean leaf score (so "not a
 * leaf" is the mean probability) and the mean out-of-distribution score, judged by the model's own
 * `decide` with the card's thresholds: the rule that judged each leaf judges the field.
 */
export function fieldDiagnosis(
  leaves: LeafEvidence[],
  thresholds: Thresholds,
  version: string,
  rule: FieldRule = FIELD_TEMPER,
): DiagnosisCore {
  const leaf = mean(leaves.map((p) => p.leafScore ?? 1));
  const shares = combineShares(
    leaves.map((p) => p.probabilities),
    rule,
  );
  const oods = leaves.flatMap((p) => (p.oodScore === null ? [] : [p.oodScore]));
  return decide(
    [...shares.map((s) => s * leaf), 1 - leaf],
    LEAF_COLOURS,
    thresholds,
    version,
    oods.length > 0 ? mean(oods) : null,
  );
}
