import { describe, expect, it } from 'vitest';
import type { AnalysisResult } from '@kutu/contract';
import { communityPostFrom } from './review.texts.ts';

const analysis = {
  id: 9,
  outcome: 'diagnosis',
  rust_class: 'common_rust',
  confidence: 0.6993,
  unsure: true,
  crop: 'maize',
};
const answered = { question: 'Is it rust?', note: 'Yes: pustules on both sides.', verdict: 'common_rust' } as const;

describe("an answered photo as the farmer's community post", () => {
  it('is written in the farmer’s language, rust named for the crop, the model’s doubt said', () => {
    const post = communityPostFrom(analysis as AnalysisResult, answered, 'amina', 'sw');
    expect(post.title).toBe('Ukaguzi wa mtaalamu wa picha ya jani langu: kutu ya mahindi (Puccinia sorghi)');
    expect(post.content.split('\n')).toEqual([
      'Swali langu: Is it rust?',
      'Kutu ilisema: kutu ya mahindi (Puccinia sorghi) (70%, haina uhakika).',
      'Jibu la mtaalamu (amina): kutu ya mahindi (Puccinia sorghi).',
      'Maelezo ya mtaalamu: Yes: pustules on both sides.',
    ]);
    expect(post).toMatchObject({ crop_type: 'MAIZE', disease_type: 'common_rust', rust_detection: 9 });
  });

  it('leaves out what was not said, and says when the model found no leaf', () => {
    const noLeaf = { ...analysis, outcome: 'not_leaf', rust_class: null, unsure: false } as AnalysisResult;
    const post = communityPostFrom(noLeaf, { question: null, note: null, verdict: 'healthy' }, null, 'en');
    expect(post.content.split('\n')).toEqual(['The Kutu model said: no leaf found.', 'Expert answer: Healthy.']);
    expect(post).toMatchObject({ disease_type: 'none', urgency_level: 'low' });
  });
});
