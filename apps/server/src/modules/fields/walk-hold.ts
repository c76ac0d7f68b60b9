import { SMALL_COUNT_MIN, wilsonInterval } from '@kutu/contract';

/** The district's other walks a new walk is held against: those of the last this many days. */
export const HOLD_WINDOW_DAYS = 14;

export type WalkHold = 'far_field' | 'far_walk';

/**
 * Whether a new walk waits for an expert or officer before it counts (docs/decisions/0105):
 * - `far_field`: its field's district is neither the farmer's own nor a neighbour (allowed only because the
 *   field's map point lies there): such a field counts only once confirmed;
 * - `far_walk`: the district's other walks of the crop in the last HOLD_WINDOW_DAYS days rest on
 *   SMALL_COUNT_MIN farmers or more, and the walk's 95 % Wilson interval (its rust of its plants) does not
 *   overlap theirs (their plants pooled, each field's latest walk): the walk says something the district's
 *   other farmers do not. Fewer farmers than that say too little to call any walk far.
 */
export function holdOf(
  nearFarmer: boolean,
  walk: { looked: number; rust: number },
  others: { looked: number; rust: number; farmers: number },
): WalkHold | null {
  if (!nearFarmer) return 'far_field';
  if (others.farmers < SMALL_COUNT_MIN) return null;
  const mine = wilsonInterval(walk.rust, walk.looked);
  const theirs = wilsonInterval(others.rust, others.looked);
  if (!mine || !theirs) return null;
  return mine.low > theirs.high || mine.high < theirs.low ? 'far_walk' : null;
}
