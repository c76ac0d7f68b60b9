import { SMALL_COUNT_MIN } from '@kutu/contract/outbreak-paths';

/**
 * How the map shades a district by its confirmed cases (decision 0035). Counts arrive under the privacy rule
 * (packages/contract outbreak.ts `smallCount`): a count below SMALL_COUNT_MIN comes as `below_min`, never the number.
 */
export interface Count {
  /** The number of cases; null when the server says only "below the minimum". */
  count: number | null;
  below_min: boolean;
}

export const ZERO: Count = { count: 0, below_min: false };

/** How tall a "below the minimum" bar or rank is: half the minimum, above none and below any number shown. */
export const BELOW_MIN_VALUE = SMALL_COUNT_MIN / 2;

/** Shading steps: none, below the minimum, the minimum to 9, 10 to 24, 25 or more. */
export type Level = 0 | 1 | 2 | 3 | 4;

/** Light to dark rust, each step telling apart from the next also in grey (contrast ≥ 1.4 between steps). */
export const LEVEL_FILLS: Record<Level, string> = {
  0: '#f1f3f5',
  1: '#ffe8cc',
  2: '#ffa94d',
  3: '#e8590c',
  4: '#862e0b',
};

export function levelOf(c: Count): Level {
  if (c.below_min) return 1;
  const n = c.count ?? 0;
  if (n >= 25) return 4;
  if (n >= 10) return 3;
  if (n >= SMALL_COUNT_MIN) return 2;
  // A small count sent as a number would break the privacy rule; it shades as "below the minimum".
  return n > 0 ? 1 : 0;
}

/** Whether there is any case at all (a "below the minimum" is at least one). */
export const hasCases = (c: Count) => c.below_min || (c.count ?? 0) > 0;

/**
 * The count as the map writes it: the number, or "0 to {{max}}" for any count below the minimum, 0
 * included (a district with nothing shown may have one or two cases: decision 0052), never a number below it.
 */
export function countLabel(c: Count, belowMin: string): string {
  if (c.below_min || (c.count ?? 0) < SMALL_COUNT_MIN) return belowMin;
  return String(c.count);
}
