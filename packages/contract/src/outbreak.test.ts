import { describe, expect, it } from 'vitest';
import { trendDirection } from './outbreak.ts';

describe('trendDirection', () => {
  it('compares the last two weeks with the two before', () => {
    expect(trendDirection([0, 0, 3, 4])).toBe('rising');
    expect(trendDirection([5, 4, 1, 1])).toBe('falling');
    expect(trendDirection([1, 1, 1, 1])).toBe('steady');
    expect(trendDirection([9, 9, 1, 1, 1, 1])).toBe('steady');
  });

  // Beans read "RISING" in a week of 0 cases after a week of 2 (0 + 2 > 0 + 0).
  it('never calls a week with fewer cases than the week before rising', () => {
    expect(trendDirection([0, 0, 2, 0])).toBe('falling');
    expect(trendDirection([0, 0, 3, 2])).toBe('falling');
    expect(trendDirection([2])).toBe('rising');
    expect(trendDirection([])).toBe('steady');
  });
});
