/**
 * How the map shades a district by its confirmed cases (decision 0035). Counts arrive under the privacy rule
 * (packages/contract outbreak.ts `smallCount`): 1 or 2 cases come as "fewer than 3", never the number.
 */
export interface Count {
  /** The number of cases; null when the server says only "fewer than 3". */
  count: number | null;
  fewer_than_3: boolean;
}

export const ZERO: Count = { count: 0, fewer_than_3: false };

/** Shading steps: none, fewer than 3, 3 to 9, 10 to 24, 25 or more. */
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
  if (c.fewer_than_3) return 1;
  const n = c.count ?? 0;
  if (n >= 25) return 4;
  if (n >= 10) return 3;
  if (n >= 3) return 2;
  // A count of 1 or 2 sent as a number would break the privacy rule; it shades as "fewer than 3".
  return n > 0 ? 1 : 0;
}

/** Whether there is any case at all (a "fewer than 3" is at least one). */
export const hasCases = (c: Count) => c.fewer_than_3 || (c.count ?? 0) > 0;

/** The count as the map writes it: the number, or "fewer than 3" (never 1 or 2). */
export function countLabel(c: Count, fewerThan3: string): string {
  if (c.fewer_than_3 || (c.count !== null && c.count > 0 && c.count < 3)) return fewerThan3;
  return String(c.count ?? 0);
}
