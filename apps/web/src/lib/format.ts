/** Times are shown in the viewer's time zone (East Africa Time when the browser gives none), zone named. */
const fallbackZone = 'Africa/Kampala';
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || fallbackZone;
  } catch {
    return fallbackZone;
  }
}

/**
 * The zone's short name: "EAT" for East Africa (the en-GB and en-US names are "GMT+3"), "EST" in New
 * York; an offset only where no locale has a name.
 */
export function zoneName(date: Date, timeZone = viewerTimeZone()): string {
  const nameIn = (locale: string) =>
    new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
      .formatToParts(date)
      .find((p) => p.type === 'timeZoneName')?.value ?? '';
  const offsetOnly = (name: string) => /^(GMT|UTC)[+-]/.test(name);
  for (const locale of ['en-KE', 'en-US', 'en-GB']) {
    const name = nameIn(locale);
    if (name && !offsetOnly(name)) return name;
  }
  return nameIn('en-GB');
}

/** Date and time in the viewer's zone, with the zone's name: "2 Mar 2026, 11:00 EAT". Every screen uses it. */
export function formatDateTime(iso: string | Date | null | undefined, timeZone = viewerTimeZone()): string {
  if (!iso) return '';
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  const local = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(d);
  return `${local} ${zoneName(d, timeZone)}`;
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
