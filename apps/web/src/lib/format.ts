/** Times are shown in the viewer's time zone (East Africa Time when the browser gives none), zone named. */
const fallbackZone = 'Africa/Kampala';
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || fallbackZone;
  } catch {
    return fallbackZone;
  }
}

export function formatDateTime(iso: string | Date | null | undefined, timeZone = viewerTimeZone()): string {
  if (!iso) return '';
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  // dateStyle/timeStyle cannot be combined with timeZoneName (Intl throws), so name the parts.
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
    timeZoneName: 'short',
  }).format(d);
}

export function formatDate(iso: string | Date | null | undefined, timeZone = viewerTimeZone()): string {
  if (!iso) return '';
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone }).format(d);
}

/** Confidence 0..1 as a percentage with 2 decimals. */
export function formatPercent(value: number): string {
  return `${(value * 100).toFixed(2)}%`;
}
