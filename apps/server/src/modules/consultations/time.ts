import { eatTime } from '../../i18n/i18n.ts';

/** 'Tue, 1 Dec 2026, 09:00 EAT': times in English texts are in East Africa Time, zone named. */
export function formatEat(date: Date): string {
  return eatTime('en', date);
}
