import { EAST_AFRICA_TIME_ZONE } from '@kutu/contract';

const eatFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: EAST_AFRICA_TIME_ZONE,
});
/** 'Tue, 1 Dec 2026, 09:00 EAT': times in messages are in East Africa Time, zone named. */
export function formatEat(date: Date): string {
  return `${eatFormat.format(date)} EAT`;
}
