import { describe, expect, it } from 'vitest';
import { confidencePercent, notificationMessage } from './feedback.ts';

describe('confidence in texts for farmers', () => {
  it('is a whole percent: two decimals claim a precision the model has not', () => {
    expect(confidencePercent(0.6993)).toBe('70%');
    expect(confidencePercent(0.955)).toBe('96%');
    expect(confidencePercent(1)).toBe('100%');
    expect(
      notificationMessage({ outcome: 'diagnosis', rustClass: 'common_rust', confidence: 0.6993, unsure: true }),
    ).toMatch(/\(70%\)\.$/);
  });
});
