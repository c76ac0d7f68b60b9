import { describe, expect, it } from 'vitest';
import { render } from '../../i18n/i18n.ts';
import { notWorseRule } from './decision.ts';

const metrics = (accuracy: number, macro_f1: number, field?: number) => ({
  images: 318,
  accuracy,
  macro_f1,
  ...(field === undefined ? {} : { accuracy_by_setting: { field, lab: 1 } }),
});

describe('the activation gate', () => {
  it('accepts a candidate that is not worse on the evaluation set and on its field photos', () => {
    const verdict = notWorseRule(metrics(0.95, 0.955, 0.9), metrics(0.95, 0.95, 0.886));
    expect(verdict.accepted).toBe(true);
    expect(render('en', verdict.rule)).toBe(
      'candidate macro-F1 >= active macro-F1 and candidate accuracy >= active accuracy' +
        ' and candidate accuracy on field photos >= active accuracy on field photos',
    );
    expect(render('en', verdict.reason)).toBe(
      'not worse: macro-F1 95.5% vs 95.0%, accuracy 95.0% vs 95.0%, field photos 90.0% vs 88.6%',
    );
  });

  it('refuses a candidate that is better overall but worse on the field photos', () => {
    const verdict = notWorseRule(metrics(0.96, 0.96, 0.871), metrics(0.95, 0.95, 0.886));
    expect(verdict.accepted).toBe(false);
    expect(render('en', verdict.reason)).toBe(
      'worse: macro-F1 96.0% vs 95.0%, accuracy 96.0% vs 95.0%, field photos 87.1% vs 88.6%',
    );
  });

  it('refuses a candidate that is worse overall even if its field photos are better', () => {
    expect(notWorseRule(metrics(0.94, 0.95, 0.95), metrics(0.95, 0.95, 0.886)).accepted).toBe(false);
    expect(notWorseRule(metrics(0.95, 0.94, 0.95), metrics(0.95, 0.95, 0.886)).accepted).toBe(false);
  });

  it('judges by the whole set alone when the evaluation set names no field photos', () => {
    const verdict = notWorseRule(metrics(0.9, 0.9), metrics(0.8, 0.8));
    expect(verdict.accepted).toBe(true);
    expect(render('en', verdict.rule)).toBe(
      'candidate macro-F1 >= active macro-F1 and candidate accuracy >= active accuracy',
    );
    expect(render('en', verdict.reason)).toBe('not worse: macro-F1 90.0% vs 80.0%, accuracy 90.0% vs 80.0%');
  });

  it('refuses a candidate whose confident wrong answers on field photos rise, even if no accuracy falls, and says so with both figures', () => {
    const withWrong = (accuracy: number, field: number, wrong: number) => ({
      ...metrics(accuracy, accuracy, field),
      confident_wrong_by_setting: { field: wrong, lab: 0 },
    });
    // Same accuracy everywhere, but two more field photos answered wrongly with confidence instead of "unsure".
    const verdict = notWorseRule(withWrong(0.95, 0.9, 0.07), withWrong(0.95, 0.9, 0.05));
    expect(verdict.accepted).toBe(false);
    expect(render('en', verdict.rule)).toMatch(/share of confident wrong answers on field photos <= active share$/);
    expect(render('en', verdict.reason)).toBe(
      'refused: on field photos the candidate gives more confident wrong answers (7.0% of the photos, against 5.0% for the active model): ' +
        'macro-F1 95.0% vs 95.0%, accuracy 95.0% vs 95.0%, field photos 90.0% vs 90.0%, confident wrong answers on field photos 7.0% vs 5.0%',
    );
    // In the expert's language too, with the same figures.
    expect(render('sw', verdict.reason)).toMatch(/^imekataliwa: .*7\.0%.*5\.0%/);
    expect(render('lg', verdict.reason)).toMatch(/^kigaaniddwa: .*7\.0%.*5\.0%/);
    // Fewer or as many confident wrong answers, not worse otherwise: accepted.
    expect(notWorseRule(withWrong(0.95, 0.9, 0.05), withWrong(0.95, 0.9, 0.05)).accepted).toBe(true);
    expect(notWorseRule(withWrong(0.96, 0.91, 0.03), withWrong(0.95, 0.9, 0.05)).accepted).toBe(true);
    // Worse accuracy still reads "worse", with the confident-wrong figures beside.
    expect(render('en', notWorseRule(withWrong(0.9, 0.9, 0.07), withWrong(0.95, 0.9, 0.05)).reason)).toMatch(
      /^worse: .*confident wrong answers on field photos 7\.0% vs 5\.0%$/,
    );
  });
});
