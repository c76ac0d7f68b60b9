import {
  type AnalysisResult,
  type FieldAccuracyFigures,
  type FieldAccuracyReply,
  type FieldAccuracyVersion,
  type FieldFiguresReply,
  type FieldFiguresRow,
  type ModelAnswer,
  modelAnswers,
  type ReviewSummary,
  type ReviewVerdict,
  reviewVerdicts,
  wilsonInterval,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import type { AnalysisService } from '../analysis/analysis.service.ts';
import type { createReviewRepo } from './review.repo.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** East Africa Time has no daylight saving: UTC+3 all year. */
const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

/** Monday 00:00 East Africa Time of the week that holds `now`. */
export function weekStart(now: Date): Date {
  const local = new Date(now.getTime() + EAT_OFFSET_MS);
  const daysSinceMonday = (local.getUTCDay() + 6) % 7;
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  return new Date(midnight - daysSinceMonday * DAY_MS - EAT_OFFSET_MS);
}

/** The first day (00:00 East Africa Time) of the month `back` months before the one that holds `now`. */
export function monthStart(now: Date, back = 0): Date {
  const local = new Date(now.getTime() + EAT_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - back, 1) - EAT_OFFSET_MS);
}

/** The model's answer in the terms of a verdict. */
export function modelAnswerOf(a: Pick<AnalysisResult, 'outcome' | 'unsure' | 'rust_class'>): ModelAnswer {
  if (a.outcome === 'not_leaf' || !a.rust_class) return 'not_leaf';
  return a.unsure ? 'unsure' : a.rust_class;
}

/** Agreement is about confident answers: an unsure one or "cannot tell" agrees with nothing. */
export function agreesWith(answer: ModelAnswer, verdict: ReviewVerdict | null): boolean | null {
  if (!verdict || verdict === 'cannot_tell' || answer === 'unsure') return null;
  return answer === verdict;
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** The review figures: a person's summary, and how the model fares against the experts' verdicts. */
export function createReviewFigures(
  { clock }: Pick<ModuleDeps, 'clock'>,
  repo: ReturnType<typeof createReviewRepo>,
  analysis: Pick<AnalysisService, 'severityAgreement'>,
) {
  return {
    async summary(who: AccessClaims): Promise<ReviewSummary> {
      if (who.role === 'farmer') {
        const q = await repo.farmerQuestions(who.userId);
        return {
          role: 'farmer',
          waiting: null,
          reviewed_by_me_this_week: null,
          my_agreement_rate: null,
          questions_asked: q.asked,
          questions_answered: q.answered,
        };
      }
      const [waiting, mine] = await Promise.all([
        repo.waitingCount(),
        repo.expertFigures(who.userId, weekStart(clock.now())),
      ]);
      return {
        role: 'expert',
        waiting,
        reviewed_by_me_this_week: mine.sinceCount,
        my_agreement_rate: share(mine.agreed, mine.confident),
        questions_asked: null,
        questions_answered: null,
      };
    },

    /** Per model version (newest analyses' versions included): the live field figures from verdicts. */
    async fieldAccuracy(): Promise<FieldAccuracyReply> {
      const [verdicts, totals, severity] = await Promise.all([
        repo.verdictCounts(),
        repo.analysisCounts(),
        analysis.severityAgreement(),
      ]);
      const byVersion = new Map<string, { all: Tally; crops: Map<string, Tally> }>();
      const tallyOf = (version: string, crop: string | null) => {
        let v = byVersion.get(version);
        if (!v) {
          v = { all: newTally(), crops: new Map() };
          byVersion.set(version, v);
        }
        const key = crop ?? 'unknown';
        let c = v.crops.get(key);
        if (!c) {
          c = newTally();
          v.crops.set(key, c);
        }
        return [v.all, c];
      };
      for (const t of totals) {
        for (const tally of tallyOf(t.modelVersion, t.crop)) {
          tally.analyses += t.total;
          tally.unsure += t.unsure;
        }
      }
      for (const r of verdicts) {
        for (const tally of tallyOf(r.modelVersion, r.crop)) {
          tally.confusion[r.answer][r.verdict] += r.n;
        }
      }
      const versions: FieldAccuracyVersion[] = [...byVersion.entries()]
        .sort(([a], [b]) => b.localeCompare(a))
        .map(([version, v]) => ({
          model_version: version,
          ...figures(v.all),
          by_crop: Object.fromEntries([...v.crops.entries()].map(([crop, t]) => [crop, figures(t)])),
        }));
      return { versions, model_answers: [...modelAnswers], verdicts: [...reviewVerdicts], severity };
    },

    /**
     * The live field figures (docs/decisions/0086): per crop, how often Kutu was right, confidently wrong
     * and unsure on the photos experts verified, month by month over the last `months` and over all time,
     * each share with its 95 % Wilson interval.
     */
    async fieldFigures(months = 12): Promise<FieldFiguresReply> {
      const [recent, all] = await Promise.all([
        repo.fieldAnswerCounts(monthStart(clock.now(), months - 1)),
        repo.fieldAnswerCounts(),
      ]);
      const row = (r: (typeof all)[number]): FieldFiguresRow => ({
        crop: r.crop ?? 'unknown',
        month: r.month,
        checked: r.checked,
        right: wilsonInterval(r.right, r.checked),
        confident_wrong: wilsonInterval(r.wrong, r.checked),
        unsure: wilsonInterval(r.unsure, r.checked),
      });
      const rows = all
        .map(row)
        .sort((a, b) => a.crop.localeCompare(b.crop))
        .flatMap((total) => [
          ...recent
            .map(row)
            .filter((r) => r.crop === total.crop)
            .sort((a, b) => (b.month ?? '').localeCompare(a.month ?? '')),
          total,
        ]);
      return { rows, months };
    },
  };
}

interface Tally {
  analyses: number;
  unsure: number;
  confusion: Record<ModelAnswer, Record<ReviewVerdict, number>>;
}

function newTally(): Tally {
  const confusion = Object.fromEntries(
    modelAnswers.map((a) => [a, Object.fromEntries(reviewVerdicts.map((v) => [v, 0]))]),
  ) as Tally['confusion'];
  return { analyses: 0, unsure: 0, confusion };
}

function figures(t: Tally): FieldAccuracyFigures {
  let reviewed = 0;
  let confident = 0;
  let agreed = 0;
  for (const answer of modelAnswers) {
    for (const verdict of reviewVerdicts) {
      const n = t.confusion[answer][verdict];
      reviewed += n;
      const agrees = agreesWith(answer, verdict);
      if (agrees !== null) {
        // Only confident crop-class answers count for agreement, as the model card's accuracy does.
        if (answer === 'not_leaf') continue;
        confident += n;
        if (agrees) agreed += n;
      }
    }
  }
  return {
    analyses: t.analyses,
    reviewed,
    confident_reviewed: confident,
    agreement: share(agreed, confident),
    unsure_rate: share(t.unsure, t.analyses),
    confusion: t.confusion,
  };
}
