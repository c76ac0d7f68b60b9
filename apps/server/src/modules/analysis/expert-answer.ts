import {
  type AdviceBook,
  type AnalysisCrop,
  type ExpertAnswer,
  feedbackFor,
  resourceTopicsFor,
  type ReviewVerdict,
  type RustClass,
  rustClasses,
  type SeverityBandName,
} from '@kutu/contract';
import { type CropResource, resourcesFor } from './result-resources.ts';

/** An expert's decision on an analysis, as stored. */
export interface ExpertDecision {
  verdict: ReviewVerdict;
  note: string | null;
  severity: SeverityBandName | null;
  reviewedAt: Date;
  revisedAt: Date | null;
}

/** What a verdict answers, in the model's terms. */
export interface VerdictAnswer {
  outcome: 'diagnosis' | 'not_leaf';
  rustClass: RustClass | null;
  unsure: boolean;
  confidence: number;
}

const isClass = (v: ReviewVerdict): v is RustClass => (rustClasses as readonly string[]).includes(v);

/**
 * A verdict read as an answer (docs/decisions/0049): a class is a sure answer of that class, "not a leaf"
 * a refusal, and "cannot tell" an unsure answer on the model's class. The advice, resources and the
 * follow-up reminder then follow the same rules as the model's answers.
 */
export function answerOfVerdict(verdict: ReviewVerdict, modelClass: RustClass | null): VerdictAnswer {
  if (isClass(verdict)) return { outcome: 'diagnosis', rustClass: verdict, unsure: false, confidence: 1 };
  if (verdict === 'cannot_tell' && modelClass)
    return { outcome: 'diagnosis', rustClass: modelClass, unsure: true, confidence: 0 };
  return { outcome: 'not_leaf', rustClass: null, unsure: false, confidence: 0 };
}

/** The expert's answer as the farmer reads it: the verdict, its advice and resources for the crop. */
export function expertAnswerOf(
  decision: ExpertDecision,
  analysis: { crop: AnalysisCrop | null; rustClass: RustClass | null },
  context: { book: AdviceBook; byTopic: Map<string, CropResource[]> },
): ExpertAnswer {
  const answer = answerOfVerdict(decision.verdict, analysis.rustClass);
  return {
    verdict: decision.verdict,
    note: decision.note,
    severity: decision.verdict === 'common_rust' ? decision.severity : null,
    answered_at: (decision.revisedAt ?? decision.reviewedAt).toISOString(),
    changed: decision.revisedAt !== null,
    feedback: feedbackFor({ ...answer, crop: analysis.crop }, context.book),
    educational_resources: resourcesFor(resourceTopicsFor(answer), analysis.crop, context.byTopic),
  };
}
