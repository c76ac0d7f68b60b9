import { districtByCode } from '@kutu/contract/districts';

/**
 * The outbreak alert rule, in one place (docs/decisions/0032): an alert is raised for a district and
 * crop when, in the district itself or in any one neighbouring district, ALERT_THRESHOLD or more
 * confirmed cases (farmer-weeks, docs/decisions/0031) of that crop fall in the alert window: the
 * current ISO week and the one before (ALERT_WINDOW_WEEKS, "14 days" counted in whole weeks). Try-out
 * (demo) data never raises an alert. Only shown cells count (published.ts, docs/decisions/0052): weeks
 * below SMALL_COUNT_MIN, which the map hides, never raise an alert that names their district. An alert stays open while the rule holds; at most one is open per
 * district and crop.
 */
export const ALERT_THRESHOLD = 3;
export const ALERT_WINDOW_WEEKS = 2;

/** The districts whose alert depends on cases in `district`: itself and its neighbours. */
export function alertedBy(district: string): string[] {
  return [district, ...(districtByCode(district)?.neighbours ?? [])];
}

/** Whether `district` is in outbreak, given confirmed counts in the window per district. */
export function inOutbreak(district: string, confirmedInWindow: ReadonlyMap<string, number>): string | null {
  for (const source of alertedBy(district)) {
    if ((confirmedInWindow.get(source) ?? 0) >= ALERT_THRESHOLD) return source;
  }
  return null;
}

export { isoWeekLabel, weeksBefore, weekStartOf } from '../../lib/iso-weeks.ts';
