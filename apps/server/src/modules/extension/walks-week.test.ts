import { SMALL_COUNT_MIN } from '@kutu/contract';
import { describe, expect, it } from 'vitest';
import { walksOfWeek } from './walks-week.ts';

const at = new Date('2026-11-25T08:00:00Z');
/** A maize walk of field `fieldId`, owned by `userId`: `rust` of 100 plants. */
const walk = (id: number, fieldId: number, userId: number, rust: number) => ({
  walk: { id, fieldId, userId, walkedAt: at, plantsLooked: 100, plantsRust: rust },
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
