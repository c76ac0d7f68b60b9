import { AVAILABILITY_WINDOW_DAYS } from '@kutu/contract';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** East Africa Time is UTC+3 all year: no daylight saving, so a wall-clock time is one fixed UTC time. */
export const EAT_OFFSET_MS = 3 * 60 * MINUTE;
export const WINDOW_MS = AVAILABILITY_WINDOW_DAYS * DAY;

export interface WeeklyRule {
  /** ISO weekdays in East Africa Time, 1 (Monday) to 7 (Sunday). */
  weekdays: number[];
  startMinute: number;
  endMinute: number;
  slotMinutes: number;
}

/** Midnight EAT of the day `t` falls on, as a UTC instant. */
function eatMidnight(t: number): number {
  return Math.floor((t + EAT_OFFSET_MS) / DAY) * DAY - EAT_OFFSET_MS;
}

/** ISO weekday (1 = Monday) of the EAT day starting at `midnight`. */
function eatWeekday(midnight: number): number {
  return new Date(midnight + EAT_OFFSET_MS).getUTCDay() || 7;
}

/**
 * The slots a weekly rule makes that start in [from, to): whole slots between the rule's hours on its
 * weekdays, in East Africa Time, returned in UTC. A last piece shorter than a slot is not made.
 */
export function weeklySlotTimes(rule: WeeklyRule, from: Date, to: Date): { start: Date; end: Date }[] {
  const out: { start: Date; end: Date }[] = [];
  const days = new Set(rule.weekdays);
  for (let day = eatMidnight(from.getTime()); day < to.getTime(); day += DAY) {
    if (!days.has(eatWeekday(day))) continue;
    for (let m = rule.startMinute; m + rule.slotMinutes <= rule.endMinute; m += rule.slotMinutes) {
      const start = day + m * MINUTE;
      if (start < from.getTime() || start >= to.getTime()) continue;
      out.push({ start: new Date(start), end: new Date(start + rule.slotMinutes * MINUTE) });
    }
  }
  return out;
}

/** '09:30' for 570 minutes. */
export function minutesToClock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
