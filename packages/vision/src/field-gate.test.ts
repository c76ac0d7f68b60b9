import { describe, expect, it } from 'vitest';
import {
  checkCrops,
  FIELD_GATE,
  type FieldAnswer,
  fieldAnswer,
  holdsOutFarmer,
  mcnemarPower,
  mcnemarWorseP,
  type PairedPhoto,
  photosNeeded,
} from './field-gate.ts';

/** `n` photos of one crop, each answered `active` by the active model and `candidate` by the candidate. */
const photos = (n: number, crop: string, active: FieldAnswer, candidate: FieldAnswer, truth = 'common_rust') =>
  Array.from({ length: n }, (): PairedPhoto => ({ crop, truth, active, candidate }));

describe('the field gate', () => {
  it('scores an answer against the expert: right, confidently wrong, or unsure (unsure and "not a leaf")', () => {
    const d = (outcome: 'diagnosis' | 'not_leaf', unsure: boolean, rust_class: string | null) => ({
      outcome,
      unsure,
      rust_class,
    });
    expect(fieldAnswer(d('diagnosis', false, 'healthy'), 'healthy')).toBe('right');
    expect(fieldAnswer(d('diagnosis', false, 'common_rust'), 'healthy')).toBe('wrong');
    expect(fieldAnswer(d('diagnosis', true, 'healthy'), 'healthy')).toBe('unsure');
    expect(fieldAnswer(d('not_leaf', false, null), 'healthy')).toBe('unsure');
  });

  it("McNemar's exact test: the chance of so many losses among the disagreements if neither model were better", () => {
    expect(mcnemarWorseP(5, 0)).toBeCloseTo(1 / 32, 12);
    expect(mcnemarWorseP(6, 1)).toBeCloseTo(8 / 128, 12);
    expect(mcnemarWorseP(0, 4)).toBe(1);
    expect(mcnemarWorseP(0, 0)).toBe(1);
    // Large counts stay exact: 60 of 100 disagreements lost is p ≈ 0.0284 (binomial tail).
    expect(mcnemarWorseP(60, 40)).toBeCloseTo(0.0284, 4);
  });

  it('refuses a crop that answers fewer photos right, by the paired test, once it has enough photos', () => {
    const maize = [...photos(6, 'maize', 'right', 'unsure'), ...photos(30, 'maize', 'right', 'right')];
    const [check] = checkCrops(maize, { minPhotos: 30 });
    expect(check).toMatchObject({
      crop: 'maize',
      photos: 36,
      outcome: 'worse',
      fewer_right: true,
      more_confident_wrong: false,
      right: { candidate: 30, active: 36, worse: 6, better: 0, p: expect.closeTo(1 / 64, 12) },
    });
    // Five losses among seven disagreements is not enough evidence: p = 29/128 > 0.05.
    const close = [
      ...photos(5, 'maize', 'right', 'unsure'),
      ...photos(2, 'maize', 'unsure', 'right'),
      ...photos(30, 'maize', 'right', 'right'),
    ];
    // Nor of the absence of a loss: 37 photos cannot show it within a point (docs/decisions/0118).
    expect(checkCrops(close, { minPhotos: 30 })[0]).toMatchObject({ outcome: 'not_shown', fewer_right: false });
  });

  it('refuses a crop whose confident wrong answers rise even when as many photos are right', () => {
    const beans = [...photos(7, 'beans', 'unsure', 'wrong'), ...photos(40, 'beans', 'right', 'right')];
    const [check] = checkCrops(beans, { minPhotos: 30 });
    expect(check).toMatchObject({
      outcome: 'worse',
      fewer_right: false,
      more_confident_wrong: true,
      right: { worse: 0, better: 0, p: 1 },
      confident_wrong: { candidate: 7, active: 0, worse: 7, better: 0, p: expect.closeTo(1 / 128, 12) },
    });
  });

  it('says a crop has too few photos and does not judge it, however bad it looks', () => {
    const few = photos(10, 'maize', 'right', 'wrong');
    const [check] = checkCrops(few, { minPhotos: 30 });
    expect(check).toMatchObject({ outcome: 'too_few', fewer_right: false, more_confident_wrong: false, photos: 10 });
    expect(check.right.p).toBeLessThan(FIELD_GATE.alpha);
  });

  it('judges each crop on its own photos and counts them by class', () => {
    const mixed = [
      ...photos(8, 'maize', 'right', 'wrong', 'healthy'),
      ...photos(30, 'maize', 'right', 'right', 'other_disease'),
      ...photos(40, 'beans', 'unsure', 'right'),
    ];
    const checks = checkCrops(mixed, { minPhotos: 30 });
    expect(checks.map((c) => [c.crop, c.outcome])).toEqual([
      ['beans', 'not_shown'],
      ['maize', 'worse'],
    ]);
    expect(checks[1].by_class).toEqual({ healthy: 8, other_disease: 30 });
    expect(checks[0].right).toMatchObject({ candidate: 40, active: 0, better: 40 });
  });

  it('power: the photos a 3-point loss needs grow with how often the models disagree', () => {
    // Connor's normal approximation for ψ = 0.1, δ = 0.03, one-sided 5 %, 80 %: about 685 photos; the exact test needs a few more.
    const needed = photosNeeded(0.1, 0.03)!;
    expect(needed).toBeGreaterThan(685);
    expect(needed).toBeLessThan(800);
    expect(mcnemarPower(needed, 0.1, 0.03)).toBeGreaterThanOrEqual(0.8);
    expect(mcnemarPower(200, 0.1, 0.03)).toBeLessThan(0.5);
    expect(photosNeeded(0.2, 0.03)!).toBeGreaterThan(needed);
    // No loss, no power beyond chance.
    expect(mcnemarPower(500, 0.1, 0)).toBe(0);
  });

  it('holds back one farmer in five, always the same ones', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => i + 1);
    const held = ids.filter(holdsOutFarmer);
    expect(held.length / ids.length).toBeGreaterThan(0.185);
    expect(held.length / ids.length).toBeLessThan(0.215);
    expect(ids.filter(holdsOutFarmer)).toEqual(held);
    // Neighbouring ids are not held back together in runs: the mix spreads them.
    const runs = held.filter((id, i) => held[i + 1] === id + 1).length;
    expect(runs).toBeLessThan(held.length * 0.3);
  });
});
