/**
 * The field gate's statistics (docs/decisions/0086): a retrained candidate against the active model on the
 * same held-back field photos that experts verified, crop by crop, with an exact paired test. Pure
 * TypeScript: the server's retraining gate and the simulation (research/fieldgate) call the same code.
 */

import { nonInferiorityP } from './non-inferiority.ts';

/** How one photo was answered, against the expert's verdict. */
export type FieldAnswer = 'right' | 'wrong' | 'unsure';

/**
 * `right`: a confident answer of the expert's class; `wrong`: a confident answer of another class (what
 * misleads a farmer); `unsure`: an unsure answer or "not a leaf" (the farmer is told to ask).
 */
export function fieldAnswer(
  d: { outcome: 'diagnosis' | 'not_leaf'; unsure: boolean; rust_class: string | null },
  truth: string,
): FieldAnswer {
  if (d.outcome === 'not_leaf' || d.unsure || !d.rust_class) return 'unsure';
  return d.rust_class === truth ? 'right' : 'wrong';
}

/** The gate's numbers; the server reads `minPhotos` from its settings (TRAINING_FIELD_MIN_PHOTOS). */
export const FIELD_GATE = {
  /** One farmer in this many has every verified photo held back from training. */
  holdOutEvery: 5,
  /** One-sided level of each paired test: refused when a loss this unlikely by chance is seen. */
  alpha: 0.05,
  /**
   * Below this many field photos of a crop its check says so and today's rule decides alone. At 30 the
   * test finds a loss of 22 points with 80 % power (bench/reports/0086-field-gate.md); fewer tell too little.
   */
  minPhotos: 30,
  /** The power `detectable` is read at. */
  power: 0.8,
  /**
   * A candidate is activated on its own only when each crop's photos show it not worse than the active
   * model by more than this share, on right answers and on confident wrong ones (docs/decisions/0118).
   */
  margin: 0.01,
} as const;

/** ln(n!) by summing logs, cached; exact enough for binomial sums up to tens of thousands. */
const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push(logFactorials[i - 1] + Math.log(i));
  return logFactorials[n];
}
function binomialPmf(k: number, n: number, p: number): number {
  if (p <= 0) return k === 0 ? 1 : 0;
  if (p >= 1) return k === n ? 1 : 0;
  return Math.exp(
    logFactorial(n) - logFactorial(k) - logFactorial(n - k) + k * Math.log(p) + (n - k) * Math.log(1 - p),
  );
}

/**
 * McNemar's exact one-sided test: of `worse + better` photos where the two models disagree, `worse` went
 * against the candidate. The chance of at least that many if neither model were better (each disagreement
 * a coin toss). 1 when they never disagree.
 */
export function mcnemarWorseP(worse: number, better: number): number {
  const n = worse + better;
  if (worse === 0) return 1;
  let p = 0;
  for (let k = worse; k <= n; k++) p += binomialPmf(k, n, 0.5);
  return Math.min(1, p);
}

/** The fewest losses among `n` disagreements that the test calls worse at `alpha` (n + 1: none can). */
function criticalLosses(n: number, alpha: number): number {
  let tail = 0;
  for (let k = n; k >= 0; k--) {
    tail += binomialPmf(k, n, 0.5);
    if (tail > alpha) return k + 1;
  }
  return 0;
}

/**
 * The chance that the exact test calls the candidate worse on `photos` photos when it truly loses
 * `difference` of them (a share) and the two models disagree on `discordance` of them (a share, at least
 * the difference): Connor's design for McNemar, summed exactly over the number of disagreements.
 */
export function mcnemarPower(
  photos: number,
  discordance: number,
  difference: number,
  alpha: number = FIELD_GATE.alpha,
) {
  const psi = Math.max(discordance, difference);
  if (psi <= 0 || difference <= 0) return 0;
  const lossShare = (psi + difference) / (2 * psi);
  const mean = photos * psi;
  const spread = 8 * Math.sqrt(mean * (1 - psi)) + 8;
  let power = 0;
  for (let d = Math.max(0, Math.floor(mean - spread)); d <= Math.min(photos, Math.ceil(mean + spread)); d++) {
    const pd = binomialPmf(d, photos, psi);
    if (pd < 1e-12) continue;
    const k = criticalLosses(d, alpha);
    let tail = 0;
    for (let j = k; j <= d; j++) tail += binomialPmf(j, d, lossShare);
    power += pd * tail;
  }
  return Math.min(1, power);
}

/** The fewest photos at which a loss of `difference` is found with `power` (null above `limit`). */
export function photosNeeded(
  discordance: number,
  difference: number,
  { alpha = FIELD_GATE.alpha as number, power = FIELD_GATE.power as number, limit = 20_000 } = {},
): number | null {
  const enough = (photos: number) => mcnemarPower(photos, discordance, difference, alpha) >= power;
  // Doubling to a count that has the power, then halving back.
  let high = 16;
  while (!enough(high)) {
    if (high >= limit) return null;
    high = Math.min(limit, high * 2);
  }
  let low = Math.floor(high / 2) + 1;
  // The exact test's power is saw-toothed in n: this finds a count that has it, near the first.
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (enough(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The smallest loss (in whole points) the test finds with FIELD_GATE.power on `photos` photos when the
 * models disagree on `discordance` of them; null when not even 50 points would be.
 */
export function detectableLoss(photos: number, discordance: number, alpha: number = FIELD_GATE.alpha): number | null {
  for (let points = 1; points <= 50; points++) {
    if (mcnemarPower(photos, discordance, points / 100, alpha) >= FIELD_GATE.power) return points;
  }
  return null;
}

/** One held-back photo answered by both models. */
export interface PairedPhoto {
  crop: string;
  truth: string;
  active: FieldAnswer;
  candidate: FieldAnswer;
}

/** One measure compared on the same photos: how many each model has, and where they differ. */
export interface PairedMeasure {
  candidate: number;
  active: number;
  /** Photos where only the candidate is worse on this measure. */
  worse: number;
  /** Photos where only the candidate is better on it. */
  better: number;
  /** McNemar's exact one-sided p for "the candidate is worse". */
  p: number;
  /** Tango's one-sided p for "the candidate is worse by the margin or more": small shows it is not. */
  p_not_worse: number;
}

/**
 * `too_few`: under `minPhotos`; `worse`: a loss shown (McNemar); `not_worse`: shown not worse by more than
 * the margin on both measures (Tango); `not_shown`: neither, so no activation without an administrator.
 */
export type CropOutcome = 'too_few' | 'not_shown' | 'not_worse' | 'worse';

export interface CropCheck {
  crop: string;
  photos: number;
  /** Held-back photos of each class (the experts' verdicts). */
  by_class: Record<string, number>;
  /** Photos answered right (a confident answer of the expert's class). */
  right: PairedMeasure;
  /** Photos answered confidently wrong. */
  confident_wrong: PairedMeasure;
  outcome: CropOutcome;
  /** Whether the candidate is worse on each measure (false when too few photos). */
  fewer_right: boolean;
  more_confident_wrong: boolean;
  /** The smallest loss of right answers, in points, these photos would reveal with 80 % power. */
  detectable_points: number | null;
}

function paired(
  photos: PairedPhoto[],
  has: (a: FieldAnswer) => boolean,
  higherIsBetter: boolean,
  margin: number,
): PairedMeasure {
  let candidate = 0;
  let active = 0;
  let candidateOnly = 0;
  let activeOnly = 0;
  for (const p of photos) {
    const [c, a] = [has(p.candidate), has(p.active)];
    if (c) candidate++;
    if (a) active++;
    if (c && !a) candidateOnly++;
    if (a && !c) activeOnly++;
  }
  const [worse, better] = higherIsBetter ? [activeOnly, candidateOnly] : [candidateOnly, activeOnly];
  return {
    candidate,
    active,
    worse,
    better,
    p: mcnemarWorseP(worse, better),
    p_not_worse: nonInferiorityP(better, worse, photos.length, margin),
  };
}

function cropOutcome(enough: boolean, worse: boolean, shownNotWorse: boolean): CropOutcome {
  if (!enough) return 'too_few';
  if (worse) return 'worse';
  return shownNotWorse ? 'not_worse' : 'not_shown';
}

/**
 * Each crop's check: with at least `minPhotos` photos, the candidate is worse when the exact paired test
 * finds fewer right answers or more confident wrong ones at `alpha`, and not worse when Tango's test shows
 * it within `margin` on both at `alpha`; otherwise not shown. Crops in name order.
 */
export function checkCrops(
  photos: PairedPhoto[],
  {
    alpha = FIELD_GATE.alpha as number,
    minPhotos = FIELD_GATE.minPhotos as number,
    margin = FIELD_GATE.margin as number,
  } = {},
): CropCheck[] {
  const byCrop = new Map<string, PairedPhoto[]>();
  for (const p of photos) byCrop.set(p.crop, [...(byCrop.get(p.crop) ?? []), p]);
  return [...byCrop.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([crop, list]) => {
      const by_class: Record<string, number> = {};
      for (const p of list) by_class[p.truth] = (by_class[p.truth] ?? 0) + 1;
      const right = paired(list, (a) => a === 'right', true, margin);
      const confident_wrong = paired(list, (a) => a === 'wrong', false, margin);
      const enough = list.length >= minPhotos;
      const fewer_right = enough && right.p < alpha;
      const more_confident_wrong = enough && confident_wrong.p < alpha;
      const shownNotWorse = right.p_not_worse < alpha && confident_wrong.p_not_worse < alpha;
      return {
        crop,
        photos: list.length,
        by_class,
        right,
        confident_wrong,
        outcome: cropOutcome(enough, fewer_right || more_confident_wrong, shownNotWorse),
        fewer_right,
        more_confident_wrong,
        detectable_points: detectableLoss(list.length, (right.worse + right.better) / list.length, alpha),
      };
    });
}

/**
 * Whether a farmer's verified photos are held back from training for the field check: one farmer in
 * FIELD_GATE.holdOutEvery, by a fixed mix of their id (murmur3's finaliser), so a farmer's field is on
 * one side only and the share holds whatever order farmers come in.
 */
export function holdsOutFarmer(farmerId: number): boolean {
  let h = farmerId >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h = (h ^ (h >>> 16)) >>> 0;
  return h % FIELD_GATE.holdOutEvery === 0;
}

/** What today's rule compares on the fixed evaluation set (an evaluation report's figures). */
export interface EvalSetFigures {
  accuracy: number;
  macro_f1: number;
  accuracy_by_setting?: Record<string, number>;
  confident_wrong_by_setting?: Record<string, number>;
}

/**
 * Today's rule on the fixed evaluation set (docs/decisions/0014, 0029): not worse on macro-F1, accuracy and,
 * where both have them, accuracy on the field photos; and no more confident wrong answers on those.
 */
export function compareOnEvalSet(candidate: EvalSetFigures, active: EvalSetFigures) {
  const candidateField = candidate.accuracy_by_setting?.field;
  const activeField = active.accuracy_by_setting?.field;
  const candidateWrong = candidate.confident_wrong_by_setting?.field;
  const activeWrong = active.confident_wrong_by_setting?.field;
  const field = candidateField !== undefined && activeField !== undefined ? { candidateField, activeField } : null;
  const wrong =
    field && candidateWrong !== undefined && activeWrong !== undefined ? { candidateWrong, activeWrong } : null;
  const notWorse =
    candidate.macro_f1 >= active.macro_f1 &&
    candidate.accuracy >= active.accuracy &&
    (!field || field.candidateField >= field.activeField);
  const moreConfidentWrong = wrong !== null && wrong.candidateWrong > wrong.activeWrong;
  return { field, wrong, notWorse, moreConfidentWrong, accepted: notWorse && !moreConfidentWrong };
}

/**
 * Whether the paired check judges every crop of the fixed evaluation set's field photos (`evalSetPhotos`:
 * their count per crop, as they joined the check). Then today's point comparisons on those photos are
 * left out (`overallOnly`): the paired check on the same photos and more decides for their crops.
 */
export function fieldJudgedByCheck(
  checks: Pick<CropCheck, 'crop' | 'outcome'>[],
  evalSetPhotos: Record<string, number>,
): boolean {
  const crops = Object.keys(evalSetPhotos).filter((crop) => evalSetPhotos[crop] > 0);
  return crops.length > 0 && crops.every((crop) => checks.some((c) => c.crop === crop && c.outcome !== 'too_few'));
}

/** An evaluation report's figures without its per-setting ones: today's rule on the whole set only. */
export function overallOnly<T extends EvalSetFigures>(
  m: T,
): Omit<T, 'accuracy_by_setting' | 'confident_wrong_by_setting'> {
  const { accuracy_by_setting: _a, confident_wrong_by_setting: _w, ...overall } = m;
  return overall;
}
