import { dateTimeParts } from '@kutu/contract/enums';
import i18n from './i18n.ts';
import { currentLanguage, type Language } from './language.ts';

/**
 * The Intl locale of each language: English keeps the British forms every screen used before ("2 Mar
 * 2026, 11:00"); Kiswahili and Luganda use their own month names and orders ("2 Mac 2026").
 */
export const intlLocales: Record<Language, string> = { en: 'en-GB', sw: 'sw', lg: 'lg' };
export function displayLocale(language: Language = currentLanguage()): string {
  return intlLocales[language];
}

/**
 * Building an Intl formatter costs far more than using one (a slow phone spent ~130 ms of the dashboard's
 * first render building the same few dozen), so each locale and options pair is built once.
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat>(
  make: new (locale: string, options: object) => F,
  locale: string,
  options: object,
): F {
  const key = `${make.name} ${locale} ${JSON.stringify(options)}`;
  let formatter = formatters.get(key) as F | undefined;
  if (!formatter) {
    formatter = new make(locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}
const dateTimeFormat = (locale: string, options: Intl.DateTimeFormatOptions) =>
  cached(Intl.DateTimeFormat, locale, options);
const numberFormat = (locale: string, options: Intl.NumberFormatOptions) => cached(Intl.NumberFormat, locale, options);

/**
 * Luganda dates, written here: browsers carry no Luganda date data (Chromium falls back to "Nov 25,
 * 2026"), and the CLDR data Node has gives the same American order. Day, the month's Luganda name (from
 * the locale file, `app.months`), year: "25 Novemba 2026", as the server's i18n.ts writes them.
 */
function lugandaMonths(): string[] | null {
  if (!i18n.exists('app.months.12', { lng: 'lg', fallbackLng: false })) return null;
  return Array.from({ length: 12 }, (_, i) => i18n.t(`app.months.${i + 1}`, { lng: 'lg' }));
}
function lugandaDate(d: Date, timeZone: string, withTime: boolean, withDay = true): string | null {
  const months = lugandaMonths();
  if (!months) return null;
  const parts = Object.fromEntries(
    dateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'numeric',
      year: 'numeric',
      ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
      timeZone,
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  const date = `${withDay ? `${Number(parts.day)} ` : ''}${months[Number(parts.month) - 1]} ${parts.year}`;
  return withTime ? `${date}, ${parts.hour}:${parts.minute}` : date;
}

/** Times are shown in the viewer's time zone (East Africa Time when the browser gives none), zone named. */
const fallbackZone = 'Africa/Kampala';
/** Where the browser has it (Chromium 144+, Firefox 139+); not yet in TypeScript's libraries. */
type WithTemporal = { Temporal?: { Now: { timeZoneId(): string } } };
export function viewerTimeZone(): string {
  try {
    // Temporal reads the zone in a few milliseconds at most. A page's first Intl formatter loads ICU's
    // formatting data first (110 to 430 ms with the CPU slowed 4×, as a slow phone's), and the dashboard
    // asks for the zone as its screen starts (decision 0016).
    return (
      (globalThis as WithTemporal).Temporal?.Now.timeZoneId() ||
      dateTimeFormat('en-GB', {}).resolvedOptions().timeZone ||
      fallbackZone
    );
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
    dateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
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
export function formatDateTime(
  iso: string | Date | null | undefined,
  timeZone = viewerTimeZone(),
  language: Language = currentLanguage(),
): string {
  if (!iso) return '';
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  const local =
    (language === 'lg' && lugandaDate(d, timeZone, true)) ||
    dateTimeFormat(displayLocale(language), { ...dateTimeParts, timeZone }).format(d);
  return `${local} ${zoneName(d, timeZone)}`;
}

export function formatDate(
  iso: string | Date | null | undefined,
  timeZone = viewerTimeZone(),
  language: Language = currentLanguage(),
): string {
  if (!iso) return '';
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (language === 'lg') {
    const written = lugandaDate(d, timeZone, false);
    if (written) return written;
  }
  return dateTimeFormat(displayLocale(language), { dateStyle: 'medium', timeZone }).format(d);
}

/** The day in the viewer's zone with its weekday: "Thu, 27 Nov" (a group of times on one day). */
export function formatDay(
  iso: string | Date,
  timeZone = viewerTimeZone(),
  language: Language = currentLanguage(),
): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return dateTimeFormat(displayLocale(language), { weekday: 'short', day: 'numeric', month: 'short', timeZone }).format(
    d,
  );
}

/** The time of day in the viewer's zone, 24-hour: "09:30". */
export function formatTime(
  iso: string | Date,
  timeZone = viewerTimeZone(),
  language: Language = currentLanguage(),
): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return dateTimeFormat(displayLocale(language), {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(d);
}

/** A calendar month "YYYY-MM" by name in the language: "Jan 2026", or "Jan" alone for a chart axis. */
export function formatMonth(month: string, withYear = true, language: Language = currentLanguage()): string {
  const first = new Date(`${month}-01T00:00:00Z`);
  if (Number.isNaN(first.getTime())) return month;
  if (language === 'lg') {
    const months = lugandaMonths();
    if (months)
      return withYear ? `${months[first.getUTCMonth()]} ${first.getUTCFullYear()}` : months[first.getUTCMonth()]!;
  }
  return dateTimeFormat(displayLocale(language), {
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(first);
}

/** A count or amount in the language's digits grouping: "1,234". */
export function formatNumber(value: number, fractionDigits?: number, language: Language = currentLanguage()): string {
  // A count under 1,000 is its plain digits in every language we serve (format.test.ts checks all 1,000):
  // the dashboard's counts then need no Intl formatter, whose first one loads ICU's data (see viewerTimeZone).
  if (fractionDigits === undefined && Number.isInteger(value) && value >= 0 && value < 1000) return String(value);
  return numberFormat(displayLocale(language), {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** A share 0..1 as a percentage, 2 decimals unless asked: "87.50%". */
export function formatPercent(value: number, fractionDigits = 2, language: Language = currentLanguage()): string {
  return numberFormat(displayLocale(language), {
    style: 'percent',
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** A diagnosis's confidence: a whole percent ("70%"), in every screen that shows one. */
export function formatConfidence(value: number, language: Language = currentLanguage()): string {
  return formatPercent(value, 0, language);
}
