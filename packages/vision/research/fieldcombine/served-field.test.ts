import { describe, expect, it } from 'vitest';
import { RECIPE_ANSWER } from '../../src/card-settings.ts';
import type { RustClass, Thresholds } from '../../src/decide.ts';
import type { Leaf } from './leaves.ts';
import { byRule, servedField } from './served-field.ts';

const t: Thresholds = {
  notLeaf: 0.35,
  unsureBelow: 0.9,
  unsureNotLeafAbove: 0.25,
  minPlantFraction: 0.05,
  minGreenFraction: 0.005,
  minContrast: 0.02,
  oodUnsureAbove: 4,
  oodNotLeafAbove: 8,
};
const served = byRule({ thresholds: t, answer: RECIPE_ANSWER });
const photo = (shares: [number, number, number], leafScore = 0.99, truth: RustClass = 'other_disease'): Leaf => ({
  crop: 'maize',
  source: 'plantdoc',
  truth,
  probabilities: { common_rust: shares[0], healthy: shares[1], other_disease: shares[2] },
  leaf_score: leafScore,
  ood_score: null,
  plant_fraction: 1,
  green_fraction: 1,
  contrast: 1,
});
const rust = photo([0.97, 0.01, 0.02]);
const other = photo([0.02, 0.01, 0.97]);
/** The model's "not a leaf" (P = 0.9), though its few leaf shares say rust: dropping it would make a rust field. */
const noLeaf = photo([0.97, 0.01, 0.02], 0.1);

describe('servedField: a research field formed and answered as the server does', () => {
  it('gives no answer to a field whose first photo is not a leaf, however surely its other photos say rust', () => {
    const f = servedField([noLeaf, rust, rust], t, served);
    expect(f).toEqual({ confident: null, advice: 'not_leaf', rustSeenUnsure: false, leaves: 0 });
  });

  it('answers from the leaves that joined when a later photo is not a leaf (the server refuses it)', () => {
    const f = servedField([rust, noLeaf, rust], t, served);
    expect(f.leaves).toBe(2);
    expect(f.confident).toBe('common_rust');
  });

  it('counts rust seen on one leaf of an unsure field as rust advice given, not as no answer', () => {
    const f = servedField([rust, other, other], t, served);
    expect(f.confident).toBeNull();
    expect(f.advice).toBe('common_rust');
    expect(f.rustSeenUnsure).toBe(true);
  });

  it('gives a plainly unsure field no advice of a class', () => {
    const f = servedField([photo([0.4, 0.2, 0.4]), photo([0.3, 0.3, 0.4])], t, served);
    expect(f).toMatchObject({ confident: null, advice: 'unsure', rustSeenUnsure: false, leaves: 2 });
  });
});
