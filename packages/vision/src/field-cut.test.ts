import { describe, expect, it } from 'vitest';
import { type CutPhoto, clopperPearsonUpper, FIELD_CUT, fieldCut } from './field-cut.ts';

const many = (n: number, confidence: number | null, right: boolean): CutPhoto[] =>
  Array.from({ length: n }, () => ({ confidence, right }));

describe('the unsure cut learnt from verified field photos', () => {
  it('bounds a share exactly (Clopper–Pearson, one-sided 95 %)', () => {
    // 0 of n: 1 − 0.05^(1/n); 0 of 100 is 2.95 %, 0 of 98 is 3.01 %.
    expect(clopperPearsonUpper(0, 100)).toBeCloseTo(1 - 0.05 ** (1 / 100), 8);
    expect(clopperPearsonUpper(0, 98)).toBeGreaterThan(FIELD_CUT.maxWrong);
    // 2 of 200: about 3.1 % (the chi-square form: χ²(0.95, 6) / (2·200) = 12.59 / 400).
    expect(clopperPearsonUpper(2, 200)).toBeCloseTo(0.0311, 3);
    expect(clopperPearsonUpper(5, 5)).toBe(1);
  });

  it("leaves the card's cut where too few photos can show 3 % at all", () => {
    expect(fieldCut(many(98, 0.99, true))).toBeNull();
    expect(fieldCut([])).toBeNull();
  });

  it('answers down to the lowest share that keeps the bound at or under 3 %, and no further', () => {
    // 400 photos: 300 right at 0.9, then 6 wrong at 0.7, then 50 wrong at 0.5, 44 never answered.
    const photos = [...many(300, 0.9, true), ...many(6, 0.7, false), ...many(50, 0.5, false), ...many(44, null, true)];
    const cut = fieldCut(photos)!;
    // 6 wrong of 400: bound about 2.9 %; with the 50 more, far over.
    expect(cut).toMatchObject({ cut: 0.7, photos: 400, answered: 306, wrong: 6 });
    expect(cut.bound).toBeLessThanOrEqual(FIELD_CUT.maxWrong);
    expect(cut.bound).toBeCloseTo(clopperPearsonUpper(6, 400), 12);
  });

  it('stops at the first cut that fails, even if a looser one would pass again', () => {
    const photos = [...many(100, 0.95, false), ...many(2000, 0.6, true)];
    // Answering the 100 wrong first breaks the bound (100 of 2,100): the search stops at answering none.
    expect(fieldCut(photos)).toMatchObject({ answered: 0, cut: Number.POSITIVE_INFINITY });
  });
});
