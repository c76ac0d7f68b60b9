/**
 * The field's answer on the phone from its leaves' own answers (pure: no runtime, no browser API), as the
 * server makes it: the card's settings read by the server's reader (`cardSettings`), the same leaf filter
 * (`fieldLeaves`), field combination (`fieldDiagnosis`), rust-seen count and severity mean (`fieldRustShare`).
 */
import type { OfflineModelInfo } from '@kutu/contract';
import {
  type CardSettings,
  cardSettings,
  type DiagnosisCore,
  fieldDiagnosis,
  fieldLeaves,
  fieldRustShare,
  leafShowsRust,
  type RustSpots,
  type Severity,
  severityUnmeasured,
  shownSeverity,
} from '@kutu/vision/browser';

/** What one leaf told the phone: its own answer, its rust-coloured share and spots. */
export interface PhoneLeaf {
  diagnosis: DiagnosisCore;
  share: number | null;
  spots: RustSpots | null;
}

/**
 * The stored card's settings for a crop's photos. An info stored before the server sent `answer` has none: the
 * reader then gives the values every card was served with before the block (`RECIPE_ANSWER`) until the info is
 * refreshed. Where the server answers the crop with the unsure cut learnt from the field (`unsure_cuts`,
 * decision 0119), so does the phone; an info stored before it keeps the card's until refreshed.
 */
export function phoneSettings(
  info: Pick<OfflineModelInfo, 'version' | 'thresholds' | 'unsure_cuts'> & { answer?: unknown },
  crop?: string | null,
): CardSettings {
  const settings = cardSettings(info);
  const cut = crop ? info.unsure_cuts?.[crop] : undefined;
  return cut === undefined ? settings : { ...settings, thresholds: { ...settings.thresholds, unsureBelow: cut } };
}

export interface PhoneField {
  diagnosis: DiagnosisCore;
  /** The positions of the photos the answer was made from (the first always; `fieldLeaves`). */
  joined: number[];
  severity: Severity | null;
  /** A confident rust answer whose share could not be measured on any leaf (as the server's `severity_unmeasured`). */
  unmeasured: boolean;
  spots: RustSpots | null;
  /** Leaves that showed rust on their own (`leafShowsRust`), as the server counts them. */
  rustLeaves: number;
  settings: CardSettings;
}

/**
 * The field's answer from one to three leaves (decision 0048): a photo with no leaf answers for the field
 * only when it is the first (the server refuses it as another leaf); the severity is the mean of the leaves'
 * shares, shown for a confident rust answer at the card's cuts, with the first leaf's spots circled as the
 * server circles its first photo's.
 */
export function fieldOnPhone(results: PhoneLeaf[], settings: CardSettings): PhoneField {
  const [first] = results;
  const positions = fieldLeaves(
    results.map((_, i) => i),
    (i) => results[i].diagnosis,
  );
  const leaves = positions.map((i) => results[i]);
  const evidence = leaves.map((r) => ({
    probabilities: r.diagnosis.probabilities,
    leafScore: r.diagnosis.leaf_score,
    oodScore: r.diagnosis.ood_score,
  }));
  const diagnosis = leaves.length === 1 ? first.diagnosis : fieldDiagnosis(evidence, settings, settings.version);
  const rustLeaves =
    first.diagnosis.outcome === 'diagnosis'
      ? evidence.filter((l) => leafShowsRust(l, settings.thresholds, settings.answer.rustSeen)).length
      : 0;
  const share = fieldRustShare(leaves.map((r) => r.share));
  const answer = { outcome: diagnosis.outcome, rustClass: diagnosis.rust_class, unsure: diagnosis.unsure };
  const severity = shownSeverity(answer, share, settings.answer.severityCuts);
  return {
    diagnosis,
    joined: positions,
    severity,
    unmeasured: severityUnmeasured(answer, share),
    spots: severity && first.spots,
    rustLeaves,
    settings,
  };
}
