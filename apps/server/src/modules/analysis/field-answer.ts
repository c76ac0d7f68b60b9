import { type CardSettings, type FieldDiagnosis, fieldDiagnosis, type LeafEvidence } from '@kutu/vision';

/** What one photo of a field told the model (an analysis_photos row, or the analysis's first photo). */
export type PhotoAnswer = LeafEvidence & { probabilities: Record<string, number> };

/**
 * One field-level answer from several leaves of the same field: `fieldDiagnosis` of the vision package
 * (docs/decisions/0040, 0048), the function the phone's offline answer calls too, with the served card's
 * settings (`cardSettings`: its cuts, field temper and rust-seen rule). A photo from before leaf scores were
 * kept counts as a leaf; one without an ood score is left out of that mean. A leaf that shows rust on its own
 * is never outvoted (`rust_leaves`).
 */
export function fieldAnswer(photos: PhotoAnswer[], settings: CardSettings): FieldDiagnosis {
  return fieldDiagnosis(photos, settings, settings.version);
}
