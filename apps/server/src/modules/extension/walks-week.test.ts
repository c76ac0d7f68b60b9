import { SMALL_COUNT_MIN } from '@kutu/contract';
import { adviseField } from '@kutu/contract/field-rules';
import { describe, expect, it } from 'vitest';
import { walksOfWeek } from './walks-week.ts';

const at = new Date('2026-11-25T08:00:00Z');
/** A maize walk of field `fieldId`, owned by `userId`: `rust` of `looked` plants, 6 weeks after planting. */
const walk = (id: number, fieldId: number, userId: number, rust: number, looked = 100, more = {}) => ({
  walk: {
    id,
    fieldId,
    userId,
    walkedAt: at,
    plantsLooked: looked,
    plantsRust: rust,
    weeksSincePlanting: 6,
    growthStage: 'vegetative',
    stageSaid: false,
    ...more,
  },
  crop: 'maize',
});

describe("the officers' week walks: the small-count rule counts farmers (decision 0105)", () => {
  it('hides the fields and the median of one farmer with three fields', () => {
    const one = Array.from({ length: SMALL_COUNT_MIN }, (_, i) => walk(i + 1, i + 1, 7, 90));
    expect(walksOfWeek(one, 'maize')).toEqual({
      fields: { count: null, below_min: true },
      median_incidence: null,
      at_spray_share: { count: null, below_min: true },
    });
  });

  it('shows them once the fields belong to enough farmers', () => {
    const rows = Array.from({ length: SMALL_COUNT_MIN }, (_, i) => walk(i + 1, i + 1, i + 1, 10));
    expect(walksOfWeek([...rows, walk(9, 9, 1, 90)], 'maize')).toMatchObject({
      fields: { count: SMALL_COUNT_MIN + 1, below_min: false },
      median_incidence: 0.1,
    });
  });
});

describe("the officers' week walks: the fields the advice tells to spray (decision 0135)", () => {
  /** `n` fields of their own farmers from id `first` on, each `rust` of `looked` maize plants. */
  const fields = (first: number, n: number, rust: number, looked: number, more = {}) =>
    Array.from({ length: n }, (_, i) => walk(first + i, first + i, first + i, rust, looked, more));

  it("counts a field by its latest walk's advice, not its share: 13 of 50 maize is over 25 % but says not yet", () => {
    // 13 of 50 is 26 % (15.9–39.6 %): "do not spray yet"; 20 of 50 is 40 % (27.6–53.8 %): spray now.
    expect(adviseField({ crop: 'maize', looked: 50, rust: 13, weeks: 6 }).action).toBe('walk_again');
    expect(adviseField({ crop: 'maize', looked: 50, rust: 20, weeks: 6 }).action).toBe('spray_now');
    const rows = [
      ...fields(1, SMALL_COUNT_MIN, 13, 50),
      ...fields(11, SMALL_COUNT_MIN, 20, 50),
      walk(21, 21, 21, 2, 50),
    ];
    expect(walksOfWeek(rows, 'maize')).toEqual({
      fields: { count: 2 * SMALL_COUNT_MIN + 1, below_min: false },
      median_incidence: 0.26,
      at_spray_share: { count: SMALL_COUNT_MIN, below_min: false },
    });
  });

  it('leaves out a field too far on for a spray, by its planting date or the stage said at the walk', () => {
    const rows = [
      ...fields(1, SMALL_COUNT_MIN, 40, 50, { weeksSincePlanting: null, growthStage: null }),
      walk(11, 11, 11, 40, 50, { weeksSincePlanting: 12, growthStage: 'grain_filling' }),
      walk(12, 12, 12, 40, 50, { weeksSincePlanting: 6, growthStage: 'grain_filling', stageSaid: true }),
    ];
    // The fields of unknown age are told to spray (and to add the planting date); the late ones are not.
    expect(walksOfWeek(rows, 'maize').at_spray_share).toEqual({ count: SMALL_COUNT_MIN, below_min: false });
  });

  it('counts by the latest walk of each field, and hides a count under the small-count rule as before', () => {
    const rows = fields(1, SMALL_COUNT_MIN + 1, 20, 50);
    const again = walk(99, 1, 1, 13, 50, { walkedAt: new Date(at.getTime() + 60_000) });
    expect(walksOfWeek([...rows, again], 'maize').at_spray_share).toEqual({ count: SMALL_COUNT_MIN, below_min: false });
    // Enough farmers for the fields, too few fields told to spray for their count.
    const few = [...fields(1, SMALL_COUNT_MIN - 1, 20, 50), ...fields(11, 1, 13, 50)];
    expect(walksOfWeek(few, 'maize')).toEqual({
      fields: { count: SMALL_COUNT_MIN, below_min: false },
      median_incidence: 0.4,
      at_spray_share: { count: null, below_min: true },
    });
  });
});
