import { SMALL_COUNT_MIN, wilsonInterval } from '@kutu/contract';

/** The district's other walks a new walk is held against: those of the last this many days. */
export const HOLD_WINDOW_DAYS = 14;

export type WalkHold = 'far_field' | 'far_walk';

/**
 * Whether a new walk waits for an expert or officer before it counts (docs/decisions/0105):
 * - `far_field`: its field's district is neither the farmer's own nor a neighbour (allowed only because the
 *   field's map point lies there): such a field counts only once confirmed;
 * - `far_walk`: the district's other fields of the crop walked in the last HOLD_WINDOW_DAYS days (each its
 *   latest walk) belong to SMALL_COUNT_MIN farmers or more, and the walk's 95 % Wilson interval (its rust of
 *   its plants) meets none of theirs: it says what no other field of the district says. Fields differ, so the
 *   walk is set beside each field, never beside their plants pooled (which would call every odd field far).
 *   Fewer farmers than that say too little to call any walk far.
 */
export function holdOf(
  nearFarmer: boolean,
  walk: { looked: number; rust: number },
  others: { userId: number; looked: number; rust: number }[],
): WalkHold | null {
  if (!nearFarmer) return 'far_field';
  if (new Set(others.map((o) => o.userId)).size < SMALL_COUNT_MIN) return null;
  const mine = wilsonInterval(walk.rust, walk.looked);
  if (!mine) return null;
  const meets = others.some((o) => {
    const theirs = wilsonInterval(o.rust, o.looked);
    return theirs !== null && mine.low <= theirs.high && mine.high >= theirs.low;
  });
  return meets ? null : 'far_walk';
}
