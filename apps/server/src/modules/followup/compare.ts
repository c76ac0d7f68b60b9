import type { FollowUpOutcome, RustClass } from '@kutu/contract';
import { shownShare } from '@kutu/vision';

/** What comparing needs of one answer: the model's class, confidence and shares, and its severity estimate. */
export interface ComparedAnswer {
  outcome: 'diagnosis' | 'not_leaf';
  rustClass: RustClass | null;
  unsure: boolean;
  confidence: number;
  probabilities: Record<string, number>;
  /**
   * The rust-coloured share of the leaf as stored (0..1, `analyses.rust_share`, decision 0045); null for
   * photos analysed before severity existed. Where both answers show it (`sharesOf`), it decides instead of
   * the confidence in rust.
   */
  severity?: number | null;
}

/**
 * A share (of the leaf, or of the class) at most this much below the first still counts as "no
 * better" after treating: the same leaf photographed twice moves either by a point or so.
 */
export const NO_BETTER_MARGIN = 0.02;

/**
 * How sure an answer is of rust, as its result says it: a rust answer's confidence (a field where rust was
 * seen on some leaves: its surest rust leaf's, decision 0061), else the class share of rust.
 */
export const rustConfidence = (a: Pick<ComparedAnswer, 'rustClass' | 'confidence' | 'probabilities'>) =>
  a.rustClass === 'common_rust' ? a.confidence : (a.probabilities.common_rust ?? 0);

/**
 * The two shares of the leaf a comparison uses, as each result shows them (`shownShare`), or null when
 * either shows none: a field where rust was seen on 1 of 3 leaves stores the mean of all three (healthy
 * ones included) but shows no share, and the follow-up once quoted that mean as "your first photo".
 */
export function sharesOf(first: ComparedAnswer, next: ComparedAnswer): { before: number; now: number } | null {
  const before = shownShare(first, first.severity);
  const now = shownShare(next, next.severity);
  return before === null || now === null ? null : { before, now };
}

/**
 * The follow-up photo against the first diagnosis (advice: treat), docs/decisions/0044. Rust seen
 * as strongly (or more) after the treatment time is `worse`: the treatment did not work, and an expert
 * should look. No rust now is `better`; weaker rust is `less`; anything Kutu is not sure of, or another
 * disease, is `unclear` (the farmer is told to look at the answer and may ask an expert).
 */
export function compareFollowUp(first: ComparedAnswer, next: ComparedAnswer): FollowUpOutcome {
  if (next.outcome === 'not_leaf' || !next.rustClass || next.unsure) return 'unclear';
  if (next.rustClass === 'healthy') return 'better';
  if (next.rustClass !== 'common_rust') return 'unclear';
  const shares = sharesOf(first, next);
  if (shares) return shares.now >= shares.before - NO_BETTER_MARGIN ? 'worse' : 'less';
  return rustConfidence(next) >= rustConfidence(first) - NO_BETTER_MARGIN ? 'worse' : 'less';
}
