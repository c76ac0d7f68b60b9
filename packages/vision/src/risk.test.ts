import { describe, expect, it } from 'vitest';
import type { Thresholds } from './decide.ts';
import { answerUnder, candidateRules, meetsTargets, reliability, riskCoverage, type ScoredPhoto } from './risk.ts';

const served: Thresholds = {
  notLeaf: 0.35,
  unsureBelow: 0.5,
  unsureNotLeafAbove: 0.25,
  minPlantFraction: 0.02,
  minGreenFraction: 0.005,
  minContrast: 0.02,
  oodUnsureAbove: 4,
  oodNotLeafAbove: 8,
};

const photo = (
  crop: string,
  truth: ScoredPhoto['truth'],
  [rust, healthy, other]: number[],
  ood = 1,
  leaf = 0.99,
): ScoredPhoto => ({
  file: `${crop}-${truth}-${rust}`,
  crop,
  source: 'ibean',
  truth,
  output: {
    probabilities: { common_rust: rust, healthy, other_disease: other },
    leaf_score: leaf,
    plant_fraction: 0.8,
    green_fraction: 0.5,
    contrast: 0.2,
    ood_score: ood,
    model_version: 'v',
  },
});

const photos = [
  photo('beans', 'common_rust', [0.97, 0.02, 0.01]), // right, sure
  photo('beans', 'healthy', [0.93, 0.05, 0.02]), // wrong, sure
  photo('beans', 'healthy', [0.3, 0.65, 0.05]), // right, hesitant
  photo('beans', 'other_disease', [0.55, 0.0, 0.45]), // wrong, hesitant, narrow margin
  photo('maize', 'common_rust', [0.99, 0.005, 0.005], 6), // right, far from the training leaves
];

describe('risk and coverage of an unsure rule', () => {
  it('counts answered and wrong photos per crop with the served thresholds', () => {
    const r = riskCoverage(photos, served, { name: 'served', thresholds: {} });
    expect(r.beans).toMatchObject({ photos: 4, answered: 4, wrong: 2, coverage: 1, risk: 0.5, wrongOfAll: 0.5 });
    expect(r.maize).toMatchObject({ photos: 1, answered: 0, coverage: 0, risk: 0 });
  });

  it('trades coverage for risk as the class-share cut rises', () => {
    const r = riskCoverage(photos, served, { name: '0.9', thresholds: { unsureBelow: 0.9 } });
    expect(r.beans).toMatchObject({ answered: 2, wrong: 1, coverage: 0.5, risk: 0.5 });
    const r95 = riskCoverage(photos, served, { name: '0.95', thresholds: { unsureBelow: 0.95 } });
    expect(r95.beans).toMatchObject({ answered: 1, wrong: 0, coverage: 0.25, risk: 0 });
  });

  it('applies a margin between the two likeliest classes', () => {
    const r = riskCoverage(photos, served, { name: 'margin', thresholds: {}, minMargin: 0.2 });
    expect(r.beans).toMatchObject({ answered: 3, wrong: 1 });
    expect(answerUnder(photos[3], served, 0.2)).toBeNull();
    expect(answerUnder(photos[3], served)).toBe('common_rust');
  });

  it('groups by any key, such as crop and source', () => {
    const r = riskCoverage(photos, served, { name: 'served', thresholds: {} }, (p) => `${p.crop}/${p.source}`);
    expect(Object.keys(r)).toEqual(['beans/ibean', 'maize/ibean']);
  });

  it('meets the issue targets only with at most 3 % wrong answers and at least 75 % answered', () => {
    const point = { photos: 100, answered: 80, wrong: 2, coverage: 0.8, risk: 0.025, wrongOfAll: 0.02 };
    expect(meetsTargets(point)).toBe(true);
    expect(meetsTargets({ ...point, coverage: 0.7 })).toBe(false);
    expect(meetsTargets({ ...point, risk: 0.04 })).toBe(false);
  });

  it('lists the served rule first, no class-share cut equal to it, and names the cut of every other rule', () => {
    const rules = candidateRules({ ...served, unsureBelow: 0.9 });
    expect(rules[0].thresholds).toEqual({});
    expect(rules.filter((r) => r.thresholds.unsureBelow === 0.9 && !r.thresholds.oodUnsureAbove)).toHaveLength(0);
    expect(rules.filter((r) => r.thresholds.unsureBelow === 0.9 && r.thresholds.oodUnsureAbove)).not.toHaveLength(0);
    expect(rules.slice(1).every((r) => r.thresholds.unsureBelow !== undefined)).toBe(true);
  });

  it('tells how often the best guess is right at each level of confidence, leaving "not a leaf" out', () => {
    const refused = photo('beans', 'healthy', [0.1, 0.8, 0.1], 1, 0.5); // P(not a leaf) 0.5
    const r = reliability([...photos, refused], served);
    const beans = Object.fromEntries(r.beans.map((b) => [b.from, [b.photos, b.right]]));
    expect(beans).toMatchObject({ 0: [0, 0], 0.5: [1, 0], 0.6: [1, 1], 0.9: [1, 0], 0.95: [1, 1] });
    expect(r.beans.reduce((n, b) => n + b.photos, 0)).toBe(4);
    expect(r.maize.reduce((n, b) => n + b.photos, 0)).toBe(1);
  });
});
