import { describe, expect, it } from 'vitest';
import { MAX_FIELD_PHOTOS, secondPhotoAsk, waitsForExpert } from './field-photos.ts';

const sure = { common_rust: 0.95, healthy: 0.03, other_disease: 0.02 };
const split = { common_rust: 0.6, healthy: 0.05, other_disease: 0.35 };
/** The committed card's answer.closeMargin. */
const MARGIN = 0.4;

describe('how many leaves a field answer may still take (decision 0048)', () => {
  it('takes the other leaves of the field whatever the first said, and asks only when unsure or close', () => {
    expect(
      secondPhotoAsk({ outcome: 'diagnosis', unsure: false, probabilities: sure, photo_count: 1 }, MARGIN),
    ).toEqual({
      reason: null,
      runner_up: null,
      photos_left: 2,
    });
    expect(
      secondPhotoAsk({ outcome: 'diagnosis', unsure: true, probabilities: split, photo_count: 2 }, MARGIN),
    ).toEqual({
      reason: 'unsure',
      runner_up: 'other_disease',
      photos_left: 1,
    });
  });

  it("asks for a confident answer whose lead is under the card's close margin, and not under a smaller one", () => {
    const confident = { outcome: 'diagnosis', unsure: false, probabilities: split, photo_count: 1 };
    expect(secondPhotoAsk(confident, MARGIN)).toEqual({ reason: 'close', runner_up: 'other_disease', photos_left: 2 });
    expect(secondPhotoAsk(confident, 0.2)).toEqual({ reason: null, runner_up: null, photos_left: 2 });
  });

  it('takes none after a photo with no leaf, or at the limit', () => {
    expect(
      secondPhotoAsk({ outcome: 'not_leaf', unsure: false, probabilities: sure, photo_count: 1 }, MARGIN).photos_left,
    ).toBe(0);
    const full = { outcome: 'diagnosis', unsure: true, probabilities: split, photo_count: MAX_FIELD_PHOTOS };
    expect(secondPhotoAsk(full, MARGIN)).toEqual({ reason: null, runner_up: null, photos_left: 0 });
  });

  it('waits for an expert only when unsure with no leaf left, and until a verdict comes', () => {
    const ask = (photo_count: number, unsure = true) =>
      secondPhotoAsk({ outcome: 'diagnosis', unsure, probabilities: split, photo_count }, MARGIN);
    expect(waitsForExpert({ outcome: 'diagnosis', unsure: true, second_photo: ask(3) })).toBe(true);
    expect(waitsForExpert({ outcome: 'diagnosis', unsure: true, second_photo: ask(2) })).toBe(false);
    expect(waitsForExpert({ outcome: 'diagnosis', unsure: false, second_photo: ask(3, false) })).toBe(false);
    expect(
      waitsForExpert({ outcome: 'diagnosis', unsure: true, second_photo: ask(3), expert_verdict: 'common_rust' }),
    ).toBe(false);
  });
});
