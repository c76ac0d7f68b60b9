import type { Language, TrainingDecision } from '@kutu/contract';
import { message, renderStored, type StoredText } from '../../i18n/i18n.ts';
import type { Decide } from '../../adapters/trainer.ts';

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/**
 * The default rule: a candidate is activated only if it is not worse than the active model on the
 * fixed evaluation set, on both macro-F1 (every class counts the same) and accuracy, and, when the set
 * has field photos, not worse on those alone: farmers photograph leaves in fields, and a gain on lab
 * photos must not hide a loss there (docs/decisions/0014). Where both models' confident-wrong shares on
 * the field photos are known, the candidate's must not rise either: a confident wrong answer is what
 * misleads a farmer (docs/decisions/0029).
 */
export const notWorseRule: Decide = (candidate, active) => {
  const candidateField = candidate.accuracy_by_setting?.field;
  const activeField = active.accuracy_by_setting?.field;
  const withField = candidateField !== undefined && activeField !== undefined;
  const candidateWrong = candidate.confident_wrong_by_setting?.field;
  const activeWrong = active.confident_wrong_by_setting?.field;
  const withWrong = withField && candidateWrong !== undefined && activeWrong !== undefined;
  const rule = message('training.rule.notWorse', {
    field: withWrong ? message('training.rule.fieldConfident') : withField ? message('training.rule.field') : '',
  });
  const numbers = message('training.verdict.numbers', {
    candidateF1: pct(candidate.macro_f1),
    activeF1: pct(active.macro_f1),
    candidateAccuracy: pct(candidate.accuracy),
    activeAccuracy: pct(active.accuracy),
    field: withWrong
      ? message('training.verdict.fieldConfident', {
          candidate: pct(candidateField),
          active: pct(activeField),
          candidateWrong: pct(candidateWrong),
          activeWrong: pct(activeWrong),
        })
      : withField
        ? message('training.verdict.field', { candidate: pct(candidateField!), active: pct(activeField!) })
        : '',
  });
  const notWorse =
    candidate.macro_f1 >= active.macro_f1 &&
    candidate.accuracy >= active.accuracy &&
    (!withField || candidateField >= activeField);
  const moreConfidentWrong = withWrong && candidateWrong > activeWrong;
  const accepted = notWorse && !moreConfidentWrong;
  return {
    accepted,
    rule,
    reason: accepted
      ? message('training.verdict.notWorse', { numbers })
      : notWorse
        ? message('training.verdict.moreConfidentWrong', {
            candidateWrong: pct(candidateWrong!),
            activeWrong: pct(activeWrong!),
            numbers,
          })
        : message('training.verdict.worse', { numbers }),
  };
};

/** A decision as stored: rule and reason are Messages (English text in rows written before migration 0014). */
export type StoredDecision = Omit<TrainingDecision, 'rule' | 'reason'> & { rule: StoredText; reason: StoredText };

/** A stored decision in the reader's language (a job's result, a version's decision). */
export function decisionOut(d: Record<string, unknown> | null, language: Language): TrainingDecision | null {
  if (!d) return null;
  const stored = d as StoredDecision;
  return { ...stored, rule: renderStored(language, stored.rule), reason: renderStored(language, stored.reason) };
}
