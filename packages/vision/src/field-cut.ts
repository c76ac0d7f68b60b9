/**
 * Each crop's unsure cut learnt from the field photos experts verified (docs/decisions/0119): the lowest
 * class share at which Kutu still answers, such that the share of those photos answered confidently wrong
 * stays at or under `maxWrong` with 95 % confidence (an exact Clopper–Pearson bound). Cuts are tried from
 * the strictest down and the first that fails stops the search (fixed-sequence testing, as in Learn then
 * Test), so the chosen cut keeps its guarantee although many were looked at.
 */

/** One verified photo: its top class share, or null when no cut would answer it (not a leaf, out of range). */
export interface CutPhoto {
  confidence: number | null;
  /** The top class is the expert's class. */
  right: boolean;
}

export interface FieldCut {
  /** Answer when the top class share is at least this. */
  cut: number;
  /** The 95 % upper bound of the confidently wrong share at this cut. */
  bound: number;
  /** Photos the cut rests on, and how many of them it answers, wrongly. */
  photos: number;
  answered: number;
  wrong: number;
}

export const FIELD_CUT = { maxWrong: 0.03, confidence: 0.95 } as const;

const logFactorials: number[] = [0];
function logChoose(n: number, k: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push(logFactorials[i - 1] + Math.log(i));
  return logFactorials[n] - logFactorials[k] - logFactorials[n - k];
}

/** P(X ≤ k) for X ~ Binomial(n, p). */
function binomialCdf(k: number, n: number, p: number): number {
  if (p <= 0) return 1;
  if (p >= 1) return k >= n ? 1 : 0;
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log(1 - p));
  return Math.min(1, sum);
}

/** The one-sided Clopper–Pearson upper bound for `k` of `n` at `confidence`: P(X ≤ k | bound) = 1 − confidence. */
export function clopperPearsonUpper(k: number, n: number, confidence: number = FIELD_CUT.confidence): number {
  if (n <= 0) return 1;
  if (k >= n) return 1;
  let low = k / n;
  let high = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (binomialCdf(k, n, mid) > 1 - confidence) low = mid;
    else high = mid;
  }
  return high;
}

/**
 * The loosest cut whose bound stays at or under `maxWrong`, searched from the strictest; null when not even
 * answering nothing shows it (fewer than 99 photos at 3 %): then the model card's cut stands.
 */
export function fieldCut(photos: CutPhoto[], { maxWrong = FIELD_CUT.maxWrong as number } = {}): FieldCut | null {
  const n = photos.length;
  const scored = photos
    .filter((p): p is CutPhoto & { confidence: number } => p.confidence !== null)
    .sort((a, b) => b.confidence - a.confidence);
  let best: FieldCut | null = null;
  let wrong = 0;
  const none = clopperPearsonUpper(0, n);
  if (none > maxWrong) return null;
  best = { cut: Number.POSITIVE_INFINITY, bound: none, photos: n, answered: 0, wrong: 0 };
  for (let i = 0; i < scored.length; i++) {
    if (!scored[i].right) wrong++;
    // Photos sharing a score are answered together.
    if (i + 1 < scored.length && scored[i + 1].confidence === scored[i].confidence) continue;
    const bound = clopperPearsonUpper(wrong, n);
    if (bound > maxWrong) break;
    best = { cut: scored[i].confidence, bound, photos: n, answered: i + 1, wrong };
  }
  return best;
}
