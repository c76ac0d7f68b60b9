import { CLASSES, type DiagnosisCore, decide, type Thresholds } from '@kutu/vision';

/** What one photo of a field told the model (an analysis_photos row, or the analysis's first photo). */
export interface PhotoAnswer {
  probabilities: Record<string, number>;
  leafScore: number | null;
  oodScore: number | null;
}

/**
 * Every photo of a field answer passed the colour checks: a photo without a leaf is refused before it
 * joins (the service), so the combined answer is never "not a leaf" for colour reasons.
 */
const LEAF_COLOURS = { plant: 1, green: 1, contrast: 1 };

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * One field-level answer from several leaves of the same field (docs/decisions/0040): the mean of the
 * photos' class shares, of their leaf scores (so the "not a leaf" probability is the mean one) and of
 * their out-of-distribution scores, given to the model's own `decide` with the served card's
 * thresholds. Averaging shares rather than voting keeps how sure each photo was: two photos at
 * 0.45 / 0.40 and one at 0.9 for the same class make a confident answer, three split ones do not.
 * A photo from before leaf scores were kept counts as a leaf (score 1), one without an ood score is
 * left out of that mean.
 */
export function fieldAnswer(photos: PhotoAnswer[], thresholds: Thresholds, version: string): DiagnosisCore {
  if (photos.length === 0) throw new Error('A field answer needs at least one photo');
  const leaf = mean(photos.map((p) => p.leafScore ?? 1));
  const probs = CLASSES.map((c) => mean(photos.map((p) => p.probabilities[c] ?? 0)) * leaf);
  const oods = photos.flatMap((p) => (p.oodScore === null ? [] : [p.oodScore]));
  return decide([...probs, 1 - leaf], LEAF_COLOURS, thresholds, version, oods.length > 0 ? mean(oods) : null);
}
