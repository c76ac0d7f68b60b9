import { describe, expect, it } from 'vitest';
import type { Thresholds } from './decide.ts';
import { combineShares, FIELD_TEMPER, fieldDiagnosis } from './field.ts';

const cuts: Thresholds = {
  notLeaf: 0.5,
  unsureBelow: 0.9,
  unsureNotLeafAbove: 0.25,
  minPlantFraction: 0.05,
  minGreenFraction: 0.005,
  minContrast: 0.02,
  oodUnsureAbove: 4,
  oodNotLeafAbove: 8,
};
const leaf = (rust: number, other = 1 - rust, healthy = 0) => ({
  probabilities: { common_rust: rust, healthy, other_disease: other },
  leafScore: 0.99,
  oodScore: 1,
});

describe('fieldDiagnosis', () => {
  it('makes three agreeing leaves a surer answer than any one of them', () => {
    // The case farmers met: each leaf says rust, none reaches the cut, the mean of shares stayed unsure.
    const leaves = [leaf(0.7), leaf(0.94), leaf(0.96)];
    const before = fieldDiagnosis(leaves, cuts, 'v', 'mean');
    expect(before.unsure).toBe(true);
    const field = fieldDiagnosis(leaves, cuts, 'v');
    expect(field.rust_class).toBe('common_rust');
    expect(field.unsure).toBe(false);
    expect(field.confidence).toBeGreaterThan(0.96);
  });

  it('makes disagreeing leaves a less sure answer', () => {
    const field = fieldDiagnosis([leaf(0.95), leaf(0.05), leaf(0.92)], cuts, 'v');
    expect(field.unsure).toBe(true);
    expect(field.confidence).toBeLessThan(0.95);
  });

  it('gives one leaf its own answer, whatever the temper', () => {
    const one = fieldDiagnosis([leaf(0.93)], cuts, 'v');
    expect(one.confidence).toBeCloseTo(0.93, 6);
    expect(one.unsure).toBe(false);
  });

  it('tempers the sum: each extra leaf of a field counts for less than an independent one', () => {
    const independent = combineShares([leaf(0.8).probabilities, leaf(0.8).probabilities], 1)[0];
    const tempered = combineShares([leaf(0.8).probabilities, leaf(0.8).probabilities], FIELD_TEMPER)[0];
    expect(tempered).toBeGreaterThan(0.8);
    expect(tempered).toBeLessThan(independent);
  });

  it('does not let a share of exactly zero veto a class for the field', () => {
    const shares = combineShares([leaf(0, 1).probabilities, leaf(1, 0).probabilities, leaf(1, 0).probabilities]);
    expect(shares[0]).toBeGreaterThan(0.99);
  });

  it('keeps the mean leaf score and ood score, so "not a leaf" and out of distribution still apply', () => {
    const far = fieldDiagnosis(
      [
        { ...leaf(0.99), oodScore: 9 },
        { ...leaf(0.99), oodScore: 9 },
      ],
      cuts,
      'v',
    );
    expect(far.outcome).toBe('not_leaf');
    expect(far.ood_score).toBe(9);
  });
});
