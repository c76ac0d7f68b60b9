import { describe, expect, it } from 'vitest';
import { windowDays } from './window.ts';

describe('windowDays', () => {
  it('counts the days the range line shows, both ends included', () => {
    // 16 to 26 November: the "last 14 days" the map once said over 11 days of counts.
    expect(windowDays({ from: '2026-11-16', to: '2026-11-26' })).toBe(11);
    expect(windowDays({ from: '2026-11-16', to: '2026-11-16' })).toBe(1);
    expect(windowDays({ from: '2026-10-26', to: '2026-11-08' })).toBe(14);
  });
});
