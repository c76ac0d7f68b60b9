import { describe, expect, it } from 'vitest';
import english from '../../../lib/locales/en.json';
import { resultSentenceKeys } from './result-sentences.ts';

describe('the result sentences a person may record', () => {
  it('are the result headings and explanations that take no values', () => {
    const keys = resultSentenceKeys(english);
    expect(keys).toContain('analysis.result.heading.rust_maize');
    expect(keys).toContain('analysis.result.explanation.healthy');
    // "Not sure: possibly {{guess}}" reads a different word each time: never recorded once for all.
    expect(keys).not.toContain('analysis.result.heading.unsure');
    expect(keys.length).toBeGreaterThan(8);
  });
});
