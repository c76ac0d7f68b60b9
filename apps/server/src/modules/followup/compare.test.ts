import { describe, expect, it } from 'vitest';
import { type ComparedAnswer, compareFollowUp, NO_BETTER_MARGIN } from './compare.ts';

const rust = (share: number, more: Partial<ComparedAnswer> = {}): ComparedAnswer => ({
  outcome: 'diagnosis',
  rustClass: 'common_rust',
  unsure: false,
  probabilities: { common_rust: share, healthy: 1 - share, other_disease: 0 },
  ...more,
});
const first = rust(0.9);

describe('compareFollowUp', () => {
  it('calls rust as strong or stronger after treating worse, and clearly weaker rust less', () => {
    expect(compareFollowUp(first, rust(0.97))).toBe('worse');
    expect(compareFollowUp(first, rust(0.9 - NO_BETTER_MARGIN / 2))).toBe('worse');
    expect(compareFollowUp(first, rust(0.8))).toBe('less');
  });

  it('calls a healthy leaf better, and an unsure answer, another disease or no leaf unclear', () => {
    expect(compareFollowUp(first, { ...rust(0.05), rustClass: 'healthy' })).toBe('better');
    expect(compareFollowUp(first, rust(0.6, { unsure: true }))).toBe('unclear');
    expect(compareFollowUp(first, { ...rust(0.1), rustClass: 'other_disease' })).toBe('unclear');
    expect(compareFollowUp(first, { ...rust(0), outcome: 'not_leaf', rustClass: null })).toBe('unclear');
  });

  it('lets severity decide where both answers have one', () => {
    expect(compareFollowUp(rust(0.9, { severity: 0.2 }), rust(0.8, { severity: 0.3 }))).toBe('worse');
    expect(compareFollowUp(rust(0.8, { severity: 0.3 }), rust(0.95, { severity: 0.1 }))).toBe('less');
    // A point less of the leaf is the same leaf again, not an improvement.
    expect(compareFollowUp(rust(0.9, { severity: 0.2 }), rust(0.9, { severity: 0.19 }))).toBe('worse');
    // One without severity: the rust share decides.
    expect(compareFollowUp(rust(0.9, { severity: 0.2 }), rust(0.95))).toBe('worse');
  });
});
