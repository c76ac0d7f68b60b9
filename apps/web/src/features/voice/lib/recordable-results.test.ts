import { describe, expect, it } from 'vitest';
import english from '../../../lib/locales/en.json';
import { RECORDABLE_RESULT_KEYS } from '@kutu/contract/result-text';

describe('the result sentences a person may record', () => {
  it('are the result headings and explanations of the catalogue that take no values, all of them', () => {
    const result = english.analysis.result as unknown as Record<string, Record<string, string>>;
    const withoutValues = (['heading', 'explanation'] as const).flatMap((part) =>
      Object.entries(result[part] ?? {})
        .filter(([, text]) => !text.includes('{{'))
        .map(([name]) => `analysis.result.${part}.${name}`),
    );
    expect([...RECORDABLE_RESULT_KEYS].sort()).toEqual(withoutValues.sort());
    // "Not sure: possibly {{guess}}" reads a different word each time: never recorded once for all.
    expect(RECORDABLE_RESULT_KEYS).not.toContain('analysis.result.heading.unsure');
    expect(RECORDABLE_RESULT_KEYS).toContain('analysis.result.heading.rust_maize');
  });
});
