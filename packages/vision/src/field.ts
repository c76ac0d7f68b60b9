/**
 * One answer for a field from several of its leaves (docs/decisions/0040, 0048). Pure TypeScript: the
 * server's field answer and the phone's offline answer call the same function with the same card.
 */
import type { AnswerSettings, FieldRule, RustSeenRule } from './card-settings.ts';
import { CLASSES, type DiagnosisCore, decide, type RustClass, type Thresholds } from './decide.ts';

export type { FieldRule, RustSeenRule } from './card-settings.ts';

/** What one leaf of the field told the model. */
export interface LeafEvidence {
  /** Class shares among the crop classes (they sum to 1). */
  probabilities: Partial<Record<RustClass, number>>;
  /** 1 − P(not a leaf); null for photos from before it was kept (counted as a leaf). */
  leafScore: number | null;
  /** Out-of-distribution score; null when the model has none (left out of the mean). */
  oodScore: number | null;
}

/** Shares below this count as this (a share of exactly 0 would veto a class for the whole field). */
const FLOOR = 1e-6;

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * The field's class shares from its leaves' (one leaf: its own shares, whatever the rule). How the leaves'
 * evidence adds up (`rule`, the card's `answer.fieldTemper`): each leaf's log class shares are summed and the
 * sum multiplied by the temper before normalising: 1 would treat the leaves as independent witnesses, but
 * leaves of one field (one variety, one light, one phone) are alike, so each extra leaf counts for less.
 * Agreeing leaves make a surer answer, disagreeing ones a less sure one. Chosen on the repository's field
 * photos by source (decision 0048, packages/vision/research/fieldcombine/): `'mean'` is the rule before it
 * (the mean of the leaves' shares), kept for comparison.
 */
export function combineShares(leaves: LeafEvidence['probabilities'][], rule: FieldRule): number[] {
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

/** What a field answer reads from the card (`cardSettings`); research tables vary the answer's rules. */
export interface FieldSettings {
  thresholds: Thresholds;
  answer: Pick<AnswerSettings, 'fieldTemper' | 'rustSeen'>;
}

/** The field's answer, with how many of its leaves showed rust on their own (`rustSeen`). */
export interface FieldDiagnosis extends DiagnosisCore {
  /** Leaves whose own answer is rust at the rust-seen cut (`RustSeenRule`). */
  rust_leaves: number;
  /** Leaves the answer was made from. */
  leaf_count: number;
}

/**
 * Whether one leaf, alone, shows rust under the rule (the card's `answer.rustSeen`, decision
 * 0061-rust-on-any-leaf): `'confident'` when its own answer, judged alone by the card's cuts, is a confident
 * rust answer; a number: when its rust share reaches that cut (at most the card's), its leaf and ood scores
 * passing as for a confident answer; `'off'`: never (the sum alone, the rule before; kept for the research table).
 */
export function leafShowsRust(leaf: LeafEvidence, thresholds: Thresholds, rule: RustSeenRule): boolean {
  if (rule === 'off') return false;
  const cut = rule === 'confident' ? thresholds.unsureBelow : Math.min(rule, thresholds.unsureBelow);
  const leafScore = leaf.leafScore ?? 1;
  const own = decide(
    [...CLASSES.map((c) => (leaf.probabilities[c] ?? 0) * leafScore), 1 - leafScore],
    LEAF_COLOURS,
    { ...thresholds, unsureBelow: cut },
    '',
    leaf.oodScore,
  );
  return own.outcome === 'diagnosis' && own.rust_class === 'common_rust' && !own.unsure;
}

/**
 * The field's diagnosis: the combined class shares (`combineShares`), the mean leaf score (so "not a
 * leaf" is the mean probability) and the mean out-of-distribution score, judged by the model's own
 * `decide` with the card's thresholds: the rule that judged each leaf judges the field.
 *
 * Rust on any leaf is said: when one leaf or more shows rust on its own (`leafShowsRust`) and the sum is
 * not a confident rust answer (a rust leaf outvoted by healthy or otherwise diseased ones), the field is
 * never a confident "healthy" or "other disease": its answer is rust, not sure (the leaves disagree), with
 * the surest rust leaf's own rust share as its confidence (what Kutu is sure of: rust on that leaf; the
 * sum's shares stay in `probabilities`): rust was seen on `rust_leaves` of `leaf_count` leaves, and the
 * farmer gets the rust advice (walk the field, count the plants with rust). Not a sure rust answer either:
 * one confidently wrong rust leaf in a healthy field would then make the field confidently wrong (decision
 * 0061-rust-on-any-leaf, research/fieldcombine/RESULTS.md). The class shares stay the sum's.
 */
export function fieldDiagnosis(
  leaves: LeafEvidence[],
  { thresholds, answer }: FieldSettings,
  version: string,
): FieldDiagnosis {
  const { fieldTemper: rule, rustSeen } = answer;
  const leaf = mean(leaves.map((p) => p.leafScore ?? 1));
  const shares = combineShares(
    leaves.map((p) => p.probabilities),
    rule,
  );
  const oods = leaves.flatMap((p) => (p.oodScore === null ? [] : [p.oodScore]));
  const summed = decide(
    [...shares.map((s) => s * leaf), 1 - leaf],
    LEAF_COLOURS,
    thresholds,
    version,
    oods.length > 0 ? mean(oods) : null,
  );
  const rusty = leaves.filter((l) => leafShowsRust(l, thresholds, rustSeen));
  const counted = { rust_leaves: rusty.length, leaf_count: leaves.length };
  const sureRust = summed.outcome === 'diagnosis' && summed.rust_class === 'common_rust' && !summed.unsure;
  if (rusty.length === 0 || sureRust) return { ...summed, ...counted };
  return {
    ...summed,
    ...counted,
    outcome: 'diagnosis',
    rust_class: 'common_rust',
    unsure: true,
    confidence: Math.max(...rusty.map((l) => l.probabilities.common_rust ?? 0)),
  };
}

/** Whether a photo's answer lets it count as a leaf of a field: a diagnosis (a photo with no leaf does not). */
export function joinsField<T extends { outcome: string; rust_class: string | null }>(
  answer: T,
): answer is T & { rust_class: NonNullable<T['rust_class']> } {
  return answer.outcome === 'diagnosis' && answer.rust_class !== null;
}

/**
 * Which of a field's photos (in order) its answer is made from: the first always (when it shows no leaf, its
 * answer is the field's and no other joins: there is no field to add leaves to), then each later one that
 * joins (`joinsField`; the server refuses the others when they are sent). The server's and the phone's rule.
 */
export function fieldLeaves<T>(
  photos: T[],
  answerOf: (photo: T) => { outcome: string; rust_class: string | null },
): T[] {
  const [first, ...others] = photos;
  if (first === undefined) return [];
  return joinsField(answerOf(first)) ? [first, ...others.filter((p) => joinsField(answerOf(p)))] : [first];
}

/**
 * The field's rust-coloured share of the leaf (decision 0045, 0048): the mean of its leaves' measured shares
 * (a leaf whose share could not be measured is left out); null when none was measured. The server stores it,
 * the phone shows it.
 */
export function fieldRustShare(shares: (number | null | undefined)[]): number | null {
  const known = shares.filter((s): s is number => typeof s === 'number');
  return known.length > 0 ? mean(known) : null;
}
