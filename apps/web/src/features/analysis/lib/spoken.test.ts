import { describe, expect, it } from 'vitest';
import type { ExpertAnswer } from '@kutu/contract';
import { analysisResult } from '../../../test/analysis-result.ts';
import { expertAnswerParts, resultParts } from './spoken.ts';

const advice = { headline: 'Treat the rust', advice: ['Spray a fungicide.', 'Walk the field in a week.'] };

describe('what Listen reads of a result', () => {
  it('reads what was found, what it means, then the advice as the card shows it', () => {
    const result = analysisResult();
    const parts = resultParts({ ...result, feedback: { ...result.feedback, ...advice } });
    expect(parts).toEqual([
      { ref: result.feedback.finding },
      { ref: result.feedback.explanation },
      { advice: { headline: 'Treat the rust', steps: advice.advice } },
    ]);
    expect(result.feedback.finding.key).not.toBe('');
  });

  it('reads no advice while the result waits for an expert (the card shows none)', () => {
    const unsure = analysisResult({
      unsure: true,
      confidence: 0.5,
      rust_class: 'healthy',
      second_photo: { reason: null, runner_up: null, photos_left: 0 },
    });
    const parts = resultParts({ ...unsure, feedback: { ...unsure.feedback, ...advice } });
    expect(parts).toHaveLength(2);
    expect(parts.some((p) => 'advice' in p)).toBe(false);
  });

  it("reads the expert's verdict, that an expert checked it, the note as written, and the advice", () => {
    const result = analysisResult();
    const answer: ExpertAnswer = {
      verdict: 'common_rust',
      note: 'Spray before the rains.',
      severity: null,
      answered_at: '2026-11-26T08:00:00.000Z',
      changed: false,
      feedback: { ...result.feedback, ...advice },
      educational_resources: [],
    };
    const parts = expertAnswerParts(result, answer);
    expect(parts.slice(1)).toEqual([
      { ref: { key: 'analysis.expert.checked' } },
      { text: 'Spray before the rains.' },
      { advice: { headline: 'Treat the rust', steps: advice.advice } },
    ]);
    expect(expertAnswerParts(result, { ...answer, note: null }).some((p) => 'text' in p)).toBe(false);
  });
});
