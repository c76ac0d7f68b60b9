/* ISO weeks as the outbreak counts and an extension officer's week use them: Mondays (UTC), YYYY-MM-DD. */

/** Monday (UTC) of the ISO week holding `at`, as YYYY-MM-DD. */
export function weekStartOf(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** `weeks` weeks before the week starting `weekStart` (a Monday), as YYYY-MM-DD. */
export function weeksBefore(weekStart: string, weeks: number): string {
  const d = new Date(`${weekStart}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 7 * weeks);
  return d.toISOString().slice(0, 10);
}

/** The ISO week label `2026-W47` of a Monday. */
export function isoWeekLabel(weekStart: string): string {
  const d = new Date(`${weekStart}T00:00:00Z`);
  // The Thursday of the week decides its ISO year.
  d.setUTCDate(d.getUTCDate() + 3);
  const year = d.getUTCFullYear();
  const week = Math.ceil(((d.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}
