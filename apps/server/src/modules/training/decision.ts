import type { FieldCheck, Language, TrainingDecision } from '@kutu/contract';
import { type Message, type MessageKey, message, renderStored, type StoredText } from '../../i18n/i18n.ts';
import { compareOnEvalSet, type EvalSetFigures, FIELD_GATE, fieldJudgedByCheck, overallOnly } from '@kutu/vision';
import type { Decide, Verdict } from '../../adapters/trainer.ts';

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/**
 * The default rule: a candidate is activated only if it is not worse than the active model on the
 * fixed evaluation set, on both macro-F1 (every class counts the same) and accuracy, and, when the set
 * has field photos, not worse on those alone: farmers photograph leaves in fields, and a gain on lab
 * photos must not hide a loss there (docs/decisions/0014). Where both models' confident-wrong shares on
 * the field photos are known, the candidate's must not rise either: a confident wrong answer is what
 * misleads a farmer (docs/decisions/0029).
 */
export function notWorseRule(candidate: EvalSetFigures, active: EvalSetFigures): Verdict {
  const { field, wrong, notWorse, accepted } = compareOnEvalSet(candidate, active);
  const rule = message('training.rule.notWorse', {
    field: wrong ? message('training.rule.fieldConfident') : field ? message('training.rule.field') : '',
  });
  const numbers = message('training.verdict.numbers', {
    candidateF1: pct(candidate.macro_f1),
    activeF1: pct(active.macro_f1),
    candidateAccuracy: pct(candidate.accuracy),
    activeAccuracy: pct(active.accuracy),
    field: wrong
      ? message('training.verdict.fieldConfident', {
          candidate: pct(field!.candidateField),
          active: pct(field!.activeField),
          candidateWrong: pct(wrong.candidateWrong),
          activeWrong: pct(wrong.activeWrong),
        })
      : field
        ? message('training.verdict.field', { candidate: pct(field.candidateField), active: pct(field.activeField) })
        : '',
  });
  return {
    accepted,
    rule,
    reason: accepted
      ? message('training.verdict.notWorse', { numbers })
      : notWorse
        ? message('training.verdict.moreConfidentWrong', {
            candidateWrong: pct(wrong!.candidateWrong),
            activeWrong: pct(wrong!.activeWrong),
            numbers,
          })
        : message('training.verdict.worse', { numbers }),
  };
}

/** A decision as stored: rule and reason are Messages (English text in rows written before migration 0014). */
export type StoredDecision = Omit<TrainingDecision, 'rule' | 'reason'> & { rule: StoredText; reason: StoredText };

/** A stored decision in the reader's language (a job's result, a version's decision). */
export function decisionOut(d: Record<string, unknown> | null, language: Language): TrainingDecision | null {
  if (!d) return null;
  const stored = d as StoredDecision;
  return { ...stored, rule: renderStored(language, stored.rule), reason: renderStored(language, stored.reason) };
}

const fieldCrops = ['maize', 'beans', 'wheat', 'rice', 'other'] as const;
const cropName = (crop: string): Message =>
  message(
    (fieldCrops as readonly string[]).includes(crop)
      ? (`training.field.crops.${crop}` as MessageKey)
      : 'training.field.crops.unknown',
  );
const pValue = (p: number) => (p < 0.001 ? '< 0.001' : p.toFixed(3));

/** Messages joined in order ("a; b; c"), as one Message. */
function joined(parts: Message[], key: 'training.field.list' | 'training.field.and'): Message | string {
  if (parts.length === 0) return '';
  return parts.reduceRight((rest, first) => message(key, { first, rest }));
}

/**
 * The crops whose field photos every activation on its own must show not worse (docs/decisions/0118, 0131):
 * the farmers' field crops. One absent from the check (no photo of it held back) is not skipped: it waits
 * for an administrator, as a crop with too few photos does.
 */
export const GATED_CROPS = ['maize', 'beans'] as const;

/** Each crop's field figures in words (a gated crop with no photo held back reads 0 photos), or that none were held back yet. */
function cropFigures(check: FieldCheck, missing: readonly string[]): Message {
  const absent = missing.map((crop) =>
    message('training.field.tooFew', { crop: cropName(crop), photos: 0, min: check.min_photos }),
  );
  const parts = check.crops.map((c) =>
    c.outcome === 'too_few'
      ? message('training.field.tooFew', { crop: cropName(c.crop), photos: c.photos, min: check.min_photos })
      : message('training.field.crop', {
          crop: cropName(c.crop),
          photos: c.photos,
          candidateRight: c.right.candidate,
          activeRight: c.right.active,
          pRight: pValue(c.right.p),
          candidateWrong: c.confident_wrong.candidate,
          activeWrong: c.confident_wrong.active,
          pWrong: pValue(c.confident_wrong.p),
        }),
  );
  const all = [...parts, ...absent];
  return parts.length ? (joined(all, 'training.field.list') as Message) : message('training.field.none');
}

/**
 * The rule a retraining applies (docs/decisions/0086): today's rule on the fixed evaluation set and the
 * field check of each crop. Where the paired check judges every crop of the fixed set's field photos,
 * today's point comparisons on those photos give way to it (the same photos and more, with a test for
 * their number); otherwise they stand.
 */
export const fieldGateRule: Decide = (candidate, active, field) =>
  withFieldCheck(
    fieldJudgedByCheck(field.crops, field.eval_set_photos)
      ? notWorseRule(overallOnly(candidate), overallOnly(active))
      : notWorseRule(candidate, active),
    field,
  );

/**
 * Today's verdict and the field check together (docs/decisions/0118): a candidate is activated on its own
 * only if today's verdict accepts it and every crop's field photos show it not worse than the active
 * model by more than the margin (Tango's test, on right answers and on confident wrong ones). A crop
 * found worse refuses it; one where neither is shown (too few photos, a gated crop with none held back, or
 * no crop at all) leaves it to an administrator, who may activate the stored version with these figures
 * in front of them.
 */
export function withFieldCheck(today: Verdict, check: FieldCheck): Verdict {
  const worse = check.crops.filter((c) => c.outcome === 'worse');
  const missing = GATED_CROPS.filter((crop) => !check.crops.some((c) => c.crop === crop));
  const unshown = [
    ...check.crops.filter((c) => c.outcome === 'too_few' || c.outcome === 'not_shown').map((c) => c.crop),
    ...missing,
  ];
  const figures = cropFigures(check, missing);
  const margin = `${((check.margin ?? FIELD_GATE.margin) * 100).toFixed(0)}`;
  const rule = message('training.rule.withField', {
    rule: today.rule,
    min: check.min_photos,
    alpha: check.alpha,
    margin,
  });
  const names = (list: readonly string[]) =>
    joined(
      list.map((crop) => cropName(crop)),
      'training.field.and',
    );
  if (worse.length > 0)
    return {
      accepted: false,
      rule,
      reason: message('training.verdict.fieldWorse', {
        crops: names(worse.map((c) => c.crop)),
        today: today.reason,
        figures,
      }),
    };
  const withField = message('training.verdict.withField', { today: today.reason, figures });
  if (!today.accepted) return { accepted: false, rule, reason: withField };
  if (unshown.length > 0 || check.crops.length === 0)
    return {
      accepted: false,
      rule,
      reason: message('training.verdict.fieldNotShown', {
        crops: check.crops.length ? names(unshown) : message('training.field.noCrop'),
        margin,
        today: today.reason,
        figures,
      }),
    };
  return { accepted: true, rule, reason: withField };
}
