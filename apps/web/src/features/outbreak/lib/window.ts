/**
 * How many days the map's counts cover: its first to its last day, both counted. The server counts
 * whole weeks up to today, so this is fewer than the days asked for until a week ends; every label
 * ("last N days") reads it here, from the same dates the range line shows.
 */
export function windowDays({ from, to }: { from: string; to: string }): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
}
