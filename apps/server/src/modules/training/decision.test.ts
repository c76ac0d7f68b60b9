import { describe, expect, it } from 'vitest';
import type { FieldCheck, FieldCropCheck } from '@kutu/contract';
import { render } from '../../i18n/i18n.ts';
import { fieldGateRule, notWorseRule, withFieldCheck } from './decision.ts';

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

describe('the field check beside today’s rule', () => {
  const measure = (candidate: number, active: number, worse: number, better: number, p: number) => ({
    candidate,
    active,
    worse,
    better,
    p,
  });
  const crop = (name: string, outcome: FieldCropCheck['outcome'], photos = 40): FieldCropCheck => ({
    crop: name,
    photos,
    by_class: { common_rust: photos },
    right: outcome === 'worse' ? measure(30, 38, 8, 0, 0.0039) : measure(38, 37, 1, 2, 0.875),
    confident_wrong: measure(2, 2, 0, 0, 1),
    outcome,
    fewer_right: outcome === 'worse',
    more_confident_wrong: false,
    detectable_points: 14,
  });
  const check = (...crops: FieldCropCheck[]): FieldCheck => ({
    min_photos: 30,
    alpha: 0.05,
    hold_out_every: 5,
    eval_set_photos: {},
    crops,
  });
  const today = notWorseRule(metrics(0.95, 0.955), metrics(0.95, 0.95));

  it('refuses a candidate that today’s rule accepts when one crop’s held-back field photos find it worse, and names the crop', () => {
    const verdict = withFieldCheck(today, check(crop('beans', 'not_worse'), crop('maize', 'worse')));
    expect(today.accepted).toBe(true);
    expect(verdict.accepted).toBe(false);
    expect(render('en', verdict.reason)).toBe(
      'refused: on the field photos of maize the candidate is worse; ' +
        'not worse: macro-F1 95.5% vs 95.0%, accuracy 95.0% vs 95.0%; field photos by crop: ' +
        'beans, 40 photos: right 38 vs 37 (p 0.875), confident wrong 2 vs 2 (p 1.000); ' +
        'maize, 40 photos: right 30 vs 38 (p 0.004), confident wrong 2 vs 2 (p 1.000)',
    );
    expect(render('en', verdict.rule)).toMatch(
      /not worse than the active model by more than 1 points .* \(Tango's score test/,
    );
    expect(render('sw', verdict.reason)).toMatch(/^imekataliwa: .* za mahindi /);
    expect(render('lg', verdict.reason)).toMatch(/^kigaaniddwa: .* ebya kasooli /);
  });

  it('accepts a candidate no crop finds worse, and keeps today’s refusal when today’s rule refuses', () => {
    const fine = withFieldCheck(today, check(crop('beans', 'not_worse'), crop('maize', 'not_worse')));
    expect(fine.accepted).toBe(true);
    expect(render('en', fine.reason)).toMatch(/^not worse: .*; field photos by crop: beans, 40 photos: right 38 vs 37/);
    const worseToday = notWorseRule(metrics(0.9, 0.9), metrics(0.95, 0.95));
    expect(withFieldCheck(worseToday, check(crop('maize', 'not_worse'))).accepted).toBe(false);
  });

  it('activates nothing on its own where "not worse" is not shown: too few photos, none, or a crop not shown', () => {
    const few = withFieldCheck(today, check(crop('maize', 'too_few', 12)));
    expect(few.accepted).toBe(false);
    expect(render('en', few.reason)).toMatch(
      /^not activated on its own: on the field photos of maize and beans the candidate is not shown within 1 points of the active model; an administrator may activate it after reading these figures; .*; field photos by crop: maize, 12 photos: too few to show anything \(at least 30\); beans, 0 photos: too few to show anything \(at least 30\)$/,
    );
    const none = withFieldCheck(today, check());
    expect(none.accepted).toBe(false);
    expect(render('en', none.reason)).toMatch(/^not activated on its own: on the field photos of any crop \(none has/);
    expect(render('en', none.reason)).toMatch(/; field photos by crop: none yet$/);
    const unshown = withFieldCheck(today, check(crop('beans', 'not_worse'), crop('maize', 'not_shown')));
    expect(unshown.accepted).toBe(false);
    expect(render('sw', unshown.reason)).toMatch(/^haijawashwa yenyewe: .* za mahindi /);
    expect(render('lg', unshown.reason)).toMatch(/^tekoleddwa yokka: .* ebya kasooli /);
    expect(render('en', withFieldCheck(today, check(crop('unknown', 'too_few', 3))).reason)).toMatch(
      /crop not named, 3 photos/,
    );
  });

  it('leaves to an administrator a candidate when a field crop has no held-back photo at all, however well the other does', () => {
    // No maize field photo held back, beans shown not worse: maize is not skipped, it waits.
    const noMaize = withFieldCheck(today, check(crop('beans', 'not_worse')));
    expect(noMaize.accepted).toBe(false);
    expect(render('en', noMaize.reason)).toMatch(
      /^not activated on its own: on the field photos of maize the candidate is not shown within 1 points .*; field photos by crop: beans, 40 photos: .*; maize, 0 photos: too few to show anything \(at least 30\)$/,
    );
    expect(render('sw', noMaize.reason)).toMatch(/^haijawashwa yenyewe: .* za mahindi /);
    expect(withFieldCheck(today, check(crop('maize', 'not_worse'))).accepted).toBe(false);
  });

  it('lets the paired check replace today’s point comparisons on the evaluation set’s field photos once it judges their crop', () => {
    // Far more field photos right, two more confidently wrong: today's point rule refuses it (decision 0029).
    const withWrong = (field: number, wrong: number) => ({
      ...metrics(0.95, 0.95, field),
      confident_wrong_by_setting: { field: wrong, lab: 0 },
    });
    const [candidate, active] = [withWrong(0.89, 0.021), withWrong(0.34, 0.007)];
    expect(notWorseRule(candidate, active).accepted).toBe(false);
    const judged = {
      ...check(crop('beans', 'not_worse', 186), crop('maize', 'not_worse', 186)),
      eval_set_photos: { beans: 140, maize: 140 },
    };
    const verdict = fieldGateRule(candidate, active, judged);
    expect(verdict.accepted).toBe(true);
    expect(render('en', verdict.rule)).toMatch(
      /^candidate macro-F1 >= active macro-F1 and candidate accuracy >= active accuracy; and, for each crop/,
    );
    // With too few photos of the crop, today's comparison on them stands.
    const few = { ...check(crop('beans', 'too_few', 20)), eval_set_photos: { beans: 20 } };
    expect(fieldGateRule(candidate, active, few).accepted).toBe(false);
    expect(render('en', fieldGateRule(candidate, active, few).rule)).toMatch(
      /confident wrong answers on field photos <= active share;/,
    );
  });
});
