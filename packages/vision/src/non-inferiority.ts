/**
 * "Not worse by more than a margin", shown on paired photos (docs/decisions/0118): Tango's score test for
 * the difference of two paired proportions (Tango 1998, Statistics in Medicine 17:891–908). McNemar's test
 * (field-gate.ts) only says whether a loss is shown; this says whether the absence of one is.
 */

/** Upper tail of the standard normal, 1 − Φ(z) (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7). */
export function normalUpper(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) *
    Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/**
 * One-sided p of Tango's score test for "the candidate is worse by `margin` or more" (a share, > 0) on
 * `photos` paired photos, `better` of them good only for the candidate and `worse` good only for the
 * active model. Small p shows the candidate not worse by more than the margin. The variance comes from
 * the cell shares re-estimated under that null (the restricted maximum likelihood), which keeps the
 * test's level near nominal even when the models never disagree.
 */
export function nonInferiorityP(better: number, worse: number, photos: number, margin: number): number {
  if (photos <= 0) return 1;
  const n = photos;
  const d0 = -margin;
  const b = -better - worse + d0 * (2 * n - better + worse);
  const c = -worse * d0 * (1 - d0);
  const q = (-b + Math.sqrt(b * b - 8 * n * c)) / (4 * n);
  const variance = n * (2 * q + d0 * (1 - d0));
  if (variance <= 0) return better - worse - n * d0 > 0 ? 0 : 1;
  return normalUpper((better - worse - n * d0) / Math.sqrt(variance));
}
