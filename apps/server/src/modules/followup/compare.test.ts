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

  it('compares on the class only: the rust-coloured share of the leaf never decides', () => {
    // Less of the leaf rust-coloured, but the model as sure of rust: still worse.
    const leaf = (share: number, severity: number) => ({ ...rust(share), severity }) as ComparedAnswer;
    expect(compareFollowUp(leaf(0.9, 0.3), leaf(0.95, 0.01))).toBe('worse');
    // More of the leaf rust-coloured, but clearly weaker rust: less.
    expect(compareFollowUp(leaf(0.95, 0.01), leaf(0.8, 0.4))).toBe('less');
  });
});
