import type { AnalysisResult, ExpertAnswer } from '@kutu/contract';
import { waitsForExpert } from '@kutu/contract/field-photos';
import type { SpokenPart } from '../../../components/ListenButton/ListenButton.tsx';
import { verdictKeyFor } from '../../../components/review/verdicts.ts';

const advicePart = (feedback: AnalysisResult['feedback']): SpokenPart[] =>
  feedback.headline || feedback.advice.length
    ? [{ advice: { headline: feedback.headline, steps: feedback.advice } }]
    : [];

/** A result (one leaf or a field) as the Listen button reads it: what was found, what it means, the advice. */
export function resultParts(result: AnalysisResult): SpokenPart[] {
  const { feedback } = result;
  return [
    { ref: feedback.finding },
    { ref: feedback.explanation },
    // Waiting for an expert: the card shows no advice (it would ask for another photo).
    ...(waitsForExpert(result) ? [] : advicePart(feedback)),
  ];
}

/** The expert's answer: the verdict, "checked by an expert", the note as written, the advice. */
export function expertAnswerParts(result: AnalysisResult, answer: ExpertAnswer): SpokenPart[] {
  return [
    { ref: { key: verdictKeyFor(answer.verdict, result.crop) } },
    { ref: { key: 'analysis.expert.checked' } },
    ...(answer.note ? [{ text: answer.note }] : []),
    ...advicePart(answer.feedback),
  ];
}
