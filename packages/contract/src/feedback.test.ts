import { describe, expect, it } from 'vitest';
import { AdviceBook, confidencePercent, feedbackFor, resourceTopicsFor } from './feedback.ts';
import { secondPhotoAsk, waitsForExpert } from './field-photos.ts';

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

describe('rust seen on some leaves of a field (rust on any leaf is said)', () => {
  const advice = (topic: string) => ({
    id: 1,
    topic: topic as 'common_rust',
    crop: 'maize' as const,
    language: 'en' as const,
    headline: `${topic} headline`,
    steps: [`${topic} step`],
    more: [],
    sources: [],
    updated_at: '2026-11-26T00:00:00.000Z',
  });
  const withAdvice = new AdviceBook([advice('common_rust'), advice('unsure')]);
  const seen = {
    outcome: 'diagnosis',
    rustClass: 'common_rust',
    confidence: 0.95,
    unsure: true,
    crop: 'maize',
  } as const;

  it('gives the rust advice and says on how many leaves, not the unsure advice', () => {
    const f = feedbackFor({ ...seen, rustLeaves: 1, leafCount: 3 }, withAdvice);
    expect(f.headline).toBe('common_rust headline');
    expect(f.finding).toEqual({
      key: 'analysis.result.heading.rust_seen',
      values: { rust: { key: 'analysis.rustName.maize' }, count: '1', total: '3' },
    });
    expect(resourceTopicsFor({ ...seen, rustLeaves: 1 })).toEqual(['common_rust']);
  });

  it('keeps the unsure advice when no leaf showed rust on its own', () => {
    expect(feedbackFor({ ...seen, rustLeaves: 0, leafCount: 3 }, withAdvice).headline).toBe('unsure headline');
    expect(feedbackFor(seen, withAdvice).headline).toBe('unsure headline');
  });

  it('asks for no class-deciding photo and no expert wait: more leaves show how far it spread', () => {
    const field = { outcome: 'diagnosis', unsure: true, rust_class: 'common_rust', rust_leaves: 1 };
    const ask = secondPhotoAsk({ ...field, probabilities: { healthy: 0.6, common_rust: 0.3 }, photo_count: 2 }, 0.4);
    expect(ask).toEqual({ reason: null, runner_up: null, photos_left: 1 });
    const last = secondPhotoAsk({ ...field, probabilities: { healthy: 0.6, common_rust: 0.3 }, photo_count: 3 }, 0.4);
    expect(waitsForExpert({ ...field, second_photo: last })).toBe(false);
    expect(waitsForExpert({ ...field, rust_leaves: 0, second_photo: last })).toBe(true);
  });
});
