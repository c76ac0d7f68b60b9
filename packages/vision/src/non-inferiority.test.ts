import { describe, expect, it } from 'vitest';
import { checkCrops, FIELD_GATE, type FieldAnswer, type PairedPhoto } from './field-gate.ts';
import { nonInferiorityP, normalUpper } from './non-inferiority.ts';

const photos = (n: number, active: FieldAnswer, candidate: FieldAnswer, crop = 'maize') =>
  Array.from({ length: n }, (): PairedPhoto => ({ crop, truth: 'common_rust', active, candidate }));

describe('not worse by more than the margin (Tango)', () => {
  it('reads the normal tail', () => {
    expect(normalUpper(0)).toBeCloseTo(0.5, 7);
    expect(normalUpper(1.644854)).toBeCloseTo(0.05, 6);
    expect(normalUpper(-1.959964)).toBeCloseTo(0.975, 6);
  });

  it('for models that never disagree, is the closed form z = √(n·m / (1 − m))', () => {
    for (const n of [100, 300, 1000])
      expect(nonInferiorityP(0, 0, n, 0.01)).toBeCloseTo(normalUpper(Math.sqrt((n * 0.01) / 0.99)), 9);
    // 268 photos with no disagreement are the fewest that show "not worse by a point" at 5 %.
    expect(nonInferiorityP(0, 0, 267, 0.01)).toBeGreaterThan(0.05);
    expect(nonInferiorityP(0, 0, 268, 0.01)).toBeLessThan(0.05);
  });

  it('falls with more photos for an equal candidate, and stays high for one worse by the margin', () => {
    expect(nonInferiorityP(10, 10, 1000, 0.01)).toBeGreaterThan(nonInferiorityP(30, 30, 3000, 0.01));
    // 2 points worse on 3,000 photos (90 against 30): far from shown within a point.
    expect(nonInferiorityP(30, 90, 3000, 0.01)).toBeGreaterThan(0.99);
  });
});

describe('the gate needs "not worse" shown', () => {
  const rest = (n: number) => photos(n, 'right', 'right');

  it('accepts an equal candidate once the photos suffice, and leaves it unshown before', () => {
    // 3 % disagreement, half each way: equal on right answers, no confident wrong answers.
    const equal = (n: number) => [
      ...photos(n * 0.015, 'right', 'unsure'),
      ...photos(n * 0.015, 'unsure', 'right'),
      ...rest(n * 0.97),
    ];
    expect(checkCrops(equal(2000))[0]).toMatchObject({ outcome: 'not_worse', right: { worse: 30, better: 30 } });
    expect(checkCrops(equal(200))[0].outcome).toBe('not_shown');
  });

  it('refuses a candidate 2 points worse, also where McNemar alone would not call it worse', () => {
    const worse = [...photos(40, 'right', 'unsure'), ...rest(1960)];
    expect(checkCrops(worse)[0].outcome).toBe('worse');
    // 12 losses against 5 wins on 300 photos (2.3 points): McNemar's p 0.07 passed it before.
    const subtle = [...photos(12, 'right', 'unsure'), ...photos(5, 'unsure', 'right'), ...rest(283)];
    const [check] = checkCrops(subtle);
    expect(check.right.p).toBeGreaterThan(FIELD_GATE.alpha);
    expect(check.outcome).toBe('not_shown');
    // Confidently wrong on 2 points more of the photos, with as many right.
    const wrong = [...photos(40, 'unsure', 'wrong'), ...rest(1960)];
    expect(checkCrops(wrong)[0]).toMatchObject({ outcome: 'worse', more_confident_wrong: true });
  });
});
