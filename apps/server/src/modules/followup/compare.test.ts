import { describe, expect, it } from 'vitest';
import { type ComparedAnswer, compareFollowUp, NO_BETTER_MARGIN, sharesOf } from './compare.ts';

const rust = (share: number, more: Partial<ComparedAnswer> = {}): ComparedAnswer => ({
  outcome: 'diagnosis',
  rustClass: 'common_rust',
  unsure: false,
  confidence: share,
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

  // A field of one rust leaf (9 % of it) and two healthy ones stored their mean, 4 %, shown nowhere: the
  // follow-up said "about 4 % of the leaf on your first photo" where that photo read 9 %.
  it('compares only the shares the two results show; a field with rust on some leaves shows none', () => {
    const seenOnOneLeaf = rust(0.4, { unsure: true, confidence: 0.95, severity: 0.04 });
    const next = rust(0.9, { severity: 0.05 });
    expect(sharesOf(seenOnOneLeaf, next)).toBeNull();
    // Its confidence, the surest rust leaf's as the result says it, against the new photo's: less.
    expect(compareFollowUp(seenOnOneLeaf, next)).toBe('less');
    expect(sharesOf(rust(0.9, { severity: 0.09 }), next)).toEqual({ before: 0.09, now: 0.05 });
  });
});
