import { describe, expect, it } from 'vitest';
import type { Thresholds } from './decide.ts';
import { type FieldRule, RECIPE_ANSWER, type RustSeenRule } from './card-settings.ts';
import { combineShares, fieldDiagnosis, fieldLeaves, fieldRustShare, leafShowsRust } from './field.ts';

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
/** The cuts above with the recipe's answer settings, or another field rule. */
const settingsWith = (
  fieldTemper: FieldRule = RECIPE_ANSWER.fieldTemper,
  rustSeen: RustSeenRule = RECIPE_ANSWER.rustSeen,
) => ({
  thresholds: cuts,
  answer: { fieldTemper, rustSeen },
});
const served = settingsWith();
const CONFIDENT = RECIPE_ANSWER.rustSeen;
const leaf = (rust: number, other = 1 - rust, healthy = 0) => ({
  probabilities: { common_rust: rust, healthy, other_disease: other },
  leafScore: 0.99,
  oodScore: 1,
});

describe('fieldDiagnosis', () => {
  it('makes three agreeing leaves a surer answer than any one of them', () => {
    // The case farmers met: each leaf says rust, none reaches the cut, the mean of shares stayed unsure.
    const leaves = [leaf(0.7), leaf(0.94), leaf(0.96)];
    const before = fieldDiagnosis(leaves, settingsWith('mean'), 'v');
    expect(before.unsure).toBe(true);
    const field = fieldDiagnosis(leaves, served, 'v');
    expect(field.rust_class).toBe('common_rust');
    expect(field.unsure).toBe(false);
    expect(field.confidence).toBeGreaterThan(0.96);
  });

  it('makes disagreeing leaves a less sure answer', () => {
    const field = fieldDiagnosis([leaf(0.02, 0.95, 0.03), leaf(0.02, 0.03, 0.95), leaf(0.02, 0.9, 0.08)], served, 'v');
    expect(field.rust_class).toBe('other_disease');
    expect(field.unsure).toBe(true);
    expect(field.confidence).toBeLessThan(0.95);
  });

  it('gives one leaf its own answer, whatever the temper', () => {
    const one = fieldDiagnosis([leaf(0.93)], served, 'v');
    expect(one.confidence).toBeCloseTo(0.93, 6);
    expect(one.unsure).toBe(false);
  });

  it('tempers the sum: each extra leaf of a field counts for less than an independent one', () => {
    const independent = combineShares([leaf(0.8).probabilities, leaf(0.8).probabilities], 1)[0];
    const tempered = combineShares([leaf(0.8).probabilities, leaf(0.8).probabilities], RECIPE_ANSWER.fieldTemper)[0];
    expect(tempered).toBeGreaterThan(0.8);
    expect(tempered).toBeLessThan(independent);
  });

  it('does not let a share of exactly zero veto a class for the field', () => {
    const shares = combineShares([leaf(0, 1).probabilities, leaf(1, 0).probabilities, leaf(1, 0).probabilities], 0.6);
    expect(shares[0]).toBeGreaterThan(0.99);
  });

  it('keeps the mean leaf score and ood score, so "not a leaf" and out of distribution still apply', () => {
    const far = fieldDiagnosis(
      [
        { ...leaf(0.99), oodScore: 9 },
        { ...leaf(0.99), oodScore: 9 },
      ],
      served,
      'v',
    );
    expect(far.outcome).toBe('not_leaf');
    expect(far.ood_score).toBe(9);
  });
});

describe('rust on any leaf is said', () => {
  const healthy = leaf(0.01, 0.01, 0.98);
  const blight = leaf(0.02, 0.97, 0.01);

  it('never answers a field with a confident rust leaf confidently healthy: rust seen on 1 of 3 leaves', () => {
    // The sum alone outvotes the rust leaf: a sure "healthy".
    const sum = fieldDiagnosis([leaf(0.96, 0.02, 0.02), healthy, healthy], settingsWith(undefined, 'off'), 'v');
    expect(sum).toMatchObject({ rust_class: 'healthy', unsure: false });
    const field = fieldDiagnosis([healthy, leaf(0.96, 0.02, 0.02), healthy], served, 'v');
    expect(field).toMatchObject({ outcome: 'diagnosis', rust_class: 'common_rust', unsure: true });
    expect(field).toMatchObject({ rust_leaves: 1, leaf_count: 3 });
    // Not sure of the field; sure of rust on that leaf: its own share is the confidence.
    expect(field.confidence).toBeCloseTo(0.96, 9);
    expect(field.probabilities).toEqual(sum.probabilities);
  });

  it('never answers it confidently "other disease" either', () => {
    const field = fieldDiagnosis([blight, blight, leaf(0.93, 0.07, 0)], served, 'v');
    expect(field).toMatchObject({ rust_class: 'common_rust', unsure: true, rust_leaves: 1, leaf_count: 3 });
  });

  it('keeps a sure rust sum sure and counts its rust leaves', () => {
    const field = fieldDiagnosis([leaf(0.97), leaf(0.95), leaf(0.6)], served, 'v');
    expect(field).toMatchObject({ rust_class: 'common_rust', unsure: false, rust_leaves: 2, leaf_count: 3 });
  });

  it('counts a leaf only when it is a confident rust answer alone: unsure, far or leafless leaves are not', () => {
    expect(leafShowsRust(leaf(0.89), cuts, CONFIDENT)).toBe(false);
    expect(leafShowsRust(leaf(0.95), cuts, CONFIDENT)).toBe(true);
    expect(leafShowsRust({ ...leaf(0.95), oodScore: 5 }, cuts, CONFIDENT)).toBe(false);
    expect(leafShowsRust({ ...leaf(0.95), leafScore: 0.6 }, cuts, CONFIDENT)).toBe(false);
    const field = fieldDiagnosis([leaf(0.89, 0.11, 0), blight, blight], served, 'v');
    expect(field).toMatchObject({ rust_class: 'other_disease', unsure: false, rust_leaves: 0 });
  });

  it('lets a lower rust-seen cut count a strong but unsure rust leaf (research rule)', () => {
    expect(leafShowsRust(leaf(0.85), cuts, 0.8)).toBe(true);
    expect(leafShowsRust(leaf(0.95), cuts, 'off')).toBe(false);
  });
});

describe("a field's leaves and its severity (the server's and the phone's one rule)", () => {
  const rust = { outcome: 'diagnosis', rust_class: 'common_rust' };
  const none = { outcome: 'not_leaf', rust_class: null };

  it('counts the first photo always and a later one only when it shows a leaf; none after a first with no leaf', () => {
    expect(fieldLeaves([rust, none, rust], (p) => p)).toEqual([rust, rust]);
    expect(fieldLeaves([none, rust, rust], (p) => p)).toEqual([none]);
    expect(fieldLeaves([], (p) => p)).toEqual([]);
  });

  it("is the mean of the leaves' measured shares, null when none was measured", () => {
    expect(fieldRustShare([0.1, null, 0.3])).toBeCloseTo(0.2, 12);
    expect(fieldRustShare([null, undefined])).toBeNull();
  });
});
