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
});
