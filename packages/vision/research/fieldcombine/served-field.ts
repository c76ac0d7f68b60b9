/**
 * A research field answered as the server answers it: the photos in the order the farmer sent them go through
 * `fieldLeaves` (the server's and the phone's rule: a first photo with no leaf is the answer, "not a leaf",
 * and no other photo joins; a later photo with no leaf is refused), then the rule answers from the leaves that
 * joined, and the farmer's advice is the contract's `adviceTopicFor` (rust seen on one leaf but unsure gets
 * the rust advice). The field figures of `combine.ts` count these, not fields of leaf photos only.
 */
import { type AdviceTopic, adviceTopicFor } from '@kutu/contract';
import type { DiagnosisCore, RustClass, Thresholds } from '../../src/decide.ts';
import { type FieldSettings, fieldDiagnosis, fieldLeaves } from '../../src/field.ts';
import { alone, evidence, type Leaf } from './leaves.ts';

/** A field's answer from the leaves that joined it (`rust_leaves`: leaves showing rust alone, when counted). */
export type FieldAnswerOf = (leaves: Leaf[]) => DiagnosisCore & { rust_leaves?: number };

export interface ServedField {
  /** The field's confident class; null when unsure (rust seen or not) or no answer ("not a leaf"). */
  confident: RustClass | null;
  /** The advice the farmer is given: a class's (a confident answer, or rust seen but unsure), 'unsure' or 'not_leaf'. */
  advice: AdviceTopic;
  /** An unsure answer that still gives the rust advice (rust seen on a leaf, decision 0061-rust-on-any-leaf). */
  rustSeenUnsure: boolean;
  /** The photos the answer was made from (0: the first photo showed no leaf). */
  leaves: number;
}

/** The served rule's answer (`fieldDiagnosis` with the card's cuts and answer settings, or a research variant). */
export const byRule =
  (settings: FieldSettings): FieldAnswerOf =>
  (leaves) =>
    fieldDiagnosis(leaves.map(evidence), settings, 'research');

/** The field of these photos (in the order sent) as the server answers it, by `answerOf` (default: `byRule`). */
export function servedField(photos: Leaf[], t: Thresholds, answerOf: FieldAnswerOf): ServedField {
  const taken = fieldLeaves(photos, (p) => alone(p, t));
  if (taken.length === 0) throw new Error('A field needs at least one photo');
  if (alone(taken[0], t).outcome !== 'diagnosis')
    return { confident: null, advice: 'not_leaf', rustSeenUnsure: false, leaves: 0 };
  const d = answerOf(taken);
  const advice = adviceTopicFor({
    outcome: d.outcome,
    rustClass: d.rust_class,
    confidence: d.confidence,
    unsure: d.unsure,
    rustLeaves: d.rust_leaves ?? null,
    leafCount: taken.length,
  });
  const confident = d.outcome === 'diagnosis' && !d.unsure ? d.rust_class : null;
  return { confident, advice, rustSeenUnsure: d.unsure && advice === 'common_rust', leaves: taken.length };
}
