import { describe, expect, it } from 'vitest';
import { AdviceBook, confidencePercent, feedbackFor } from './feedback.ts';

const book = new AdviceBook([]);

describe('what a result says, as keys the web app writes in the reader’s language', () => {
  it('writes confidence as a whole percent: two decimals claim a precision the model has not', () => {
    expect(confidencePercent(0.6993)).toBe('70%');
    expect(confidencePercent(0.955)).toBe('96%');
    expect(confidencePercent(1)).toBe('100%');
  });

  it('names rust for the crop, and sends no English sentence', () => {
    const rust = { outcome: 'diagnosis', rustClass: 'common_rust', confidence: 0.95, unsure: false } as const;
    expect(feedbackFor({ ...rust, crop: 'beans' }, book).finding).toEqual({
      key: 'analysis.result.heading.rust_beans',
    });
    expect(feedbackFor({ ...rust, crop: 'other' }, book).explanation).toEqual({
      key: 'analysis.result.explanation.common_rust',
    });
  });

  it('gives an unsure result its guess as a key and its confidence as a value', () => {
    const f = feedbackFor(
      { outcome: 'diagnosis', rustClass: 'common_rust', confidence: 0.6993, unsure: true, crop: 'maize' },
      book,
    );
    expect(f.finding).toEqual({
      key: 'analysis.result.heading.unsure',
      values: { guess: { key: 'analysis.rustName.maize' } },
    });
    expect(f.explanation.values).toEqual({ guess: { key: 'analysis.rustName.maize' }, percent: '70%' });
  });

  it('says "no leaf" whatever the confidence', () => {
    const f = feedbackFor({ outcome: 'not_leaf', rustClass: null, confidence: 0.99, unsure: true, crop: null }, book);
    expect(f.finding).toEqual({ key: 'analysis.result.heading.not_leaf' });
    expect(f.explanation).toEqual({ key: 'analysis.result.explanation.not_leaf' });
  });
});
