import type { FollowUpOutcome, RustClass } from '@kutu/contract';

/** What comparing needs of one answer: the model's class and its shares. */
export interface ComparedAnswer {
  outcome: 'diagnosis' | 'not_leaf';
  rustClass: RustClass | null;
  unsure: boolean;
  probabilities: Record<string, number>;
}

/**
 * The rust class share at most this much below the first still counts as "no better" after treating: the
 * same leaf photographed twice moves it by a point or so.
 */
export const NO_BETTER_MARGIN = 0.02;

const rustShare = (a: ComparedAnswer) => a.probabilities.common_rust ?? 0;

/**
 * The follow-up photo against the first diagnosis (advice: treat), docs/decisions/0044, on the class only:
 * the rust-coloured share of a leaf is measured on soil and fingers as much as on the leaf, and never sets a
 * comparison (docs/decisions/0078; how much of the field has rust is a walk's count). Rust seen as strongly
 * (or more) after the treatment time is `worse`: the treatment did not work, and an expert should look. No
 * rust now is `better`; weaker rust is `less`; anything Kutu is not sure of, or another disease, is `unclear`
 * (the farmer is told to look at the answer and may ask an expert).
 */
export function compareFollowUp(first: ComparedAnswer, next: ComparedAnswer): FollowUpOutcome {
  if (next.outcome === 'not_leaf' || !next.rustClass || next.unsure) return 'unclear';
  if (next.rustClass === 'healthy') return 'better';
  if (next.rustClass !== 'common_rust') return 'unclear';
  return rustShare(next) >= rustShare(first) - NO_BETTER_MARGIN ? 'worse' : 'less';
}
