import i18next from 'i18next';
import { dateTimeParts, EAST_AFRICA_TIME_ZONE, type Language, languages } from '@kutu/contract';
import { lugandaAfterMu } from '@kutu/contract/luganda';
import en from './locales/en.json' with { type: 'json' };
import lg from './locales/lg.json' with { type: 'json' };
import sw from './locales/sw.json' with { type: 'json' };

/**
 * Everything the server writes for people (errors, emails, SMS, notifications) comes from the catalogs
 * in ./locales, one JSON file per language in i18next's format, so translators work on them alone.
 * English is the source and the fallback. See docs/decisions/0022-server-languages.md.
 */
export const catalogs = { en, sw, lg } as const satisfies Record<Language, unknown>;

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
/** i18next picks `x_one` or `x_other` from `count`; callers name the key `x`. */
type WithoutPlural<K extends string> = K extends `${infer Base}_${'one' | 'other'}` ? Base : K;
/** A key of the English catalog ("errors.auth.wrongLogin"); the `validation` section is reached via `contractMessage`. */
export type MessageKey = WithoutPlural<Exclude<Leaves<typeof en>, `validation.${string}`>>;

/** A Date is written in East Africa Time, the zone named: 'Tue, 1 Dec 2026, 09:00 EAT' in English. */
export type ParamValue = string | number | Date | Message;
export type Params = Record<string, ParamValue>;
/**
 * A text not yet in any language, rendered per reader with `render`: a catalog key and its values, or
 * an English sentence from the contract's zod schemas, translated through the `validation` section.
 */
export type Message = { key: MessageKey; params?: Params } | { contract: string };

export const message = (key: MessageKey, params?: Params): Message => ({ key, params });

const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(languages.map((l) => [l, { translation: catalogs[l] }])),
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...languages],
  nsSeparator: false,
  initAsync: false,
  returnNull: false,
  // Plain text only (SMS, email text, JSON): nothing is HTML-escaped.
  interpolation: { escapeValue: false },
});

/** The text of `key` in `language` with `params` filled in; values that are messages are rendered first. */
export function t(language: Language, key: MessageKey, params: Params = {}): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value instanceof Date) values[name] = eatTime(language, value);
    else values[name] = typeof value === 'object' ? render(language, value) : value;
  }
  const text = i18n.t(key, { ...values, lng: language });
  // "mu Ennimiro 1" → "mu nnimiro 1": a field's name filled in after "mu" (contract's luganda.ts).
  return language === 'lg' ? lugandaAfterMu(text) : text;
}

const eatFormats = {
  en: eatFormat('en-GB'),
  sw: eatFormat('sw'),
  lg: eatFormat('lg'),
} satisfies Record<Language, Intl.DateTimeFormat>;
function eatFormat(locale: string) {
  return new Intl.DateTimeFormat(locale, { weekday: 'short', ...dateTimeParts, timeZone: EAST_AFRICA_TIME_ZONE });
}
/** A moment as people in Kenya and Uganda read it, in their language, the zone named. */
export const eatTime = (language: Language, date: Date) =>
  `${language === 'lg' ? lugandaTime(date) : eatFormats[language].format(date)} EAT`;

/**
 * Luganda's CLDR data writes "Lw3, Nov 25, 2026": the weekday and month names come from the catalog
 * instead ("Lwakusatu, 25 Novemba 2026, 11:00"), as the web app writes them, so a date reads the same in an SMS and on the screen.
 */
const eatParts = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: EAST_AFRICA_TIME_ZONE,
});
const weekdayIndex: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
function lugandaTime(date: Date): string {
  const p = Object.fromEntries(eatParts.formatToParts(date).map((x) => [x.type, x.value]));
  const { months, weekdays } = catalogs.lg.dates as {
    months: Record<string, string>;
    weekdays: Record<string, string>;
  };
  return `${weekdays[String(weekdayIndex[p.weekday!])]}, ${Number(p.day)} ${months[String(Number(p.month))]} ${p.year}, ${p.hour}:${p.minute}`;
}

type Validation = Record<string, string | undefined>;
/**
 * A sentence of the contract's zod schemas ("Password mismatch") in `language`: the `validation`
 * section is keyed by the English sentence (read without i18next, whose keys cannot hold dots); one not
 * listed there stays English.
 */
export function translateContract(language: Language, english: string): string {
  return (catalogs[language].validation as Validation)[english] ?? english;
}

export function render(language: Language, m: Message): string {
  return 'contract' in m ? translateContract(language, m.contract) : t(language, m.key, m.params);
}

export const contractMessage = (english: string): Message => ({ contract: english });

/**
 * A text kept in the database to be read later, in each reader's language: a Message as JSON (its
 * values strings, numbers or Messages: a Date would come back a string), or English text written
 * before such texts were stored as Messages.
 */
export type StoredText = string | Message;

/**
 * A Message as it is kept in a JSON column: its Date values as `{ at: ISO }`, so they come back as
 * dates (written in the reader's zone and language) and not as ISO strings.
 */
export type StoredMessage = { key: MessageKey; params?: Record<string, StoredParam> } | { contract: string };
type StoredParam = string | number | { at: string } | StoredMessage;

export function storeMessage(m: Message): StoredMessage {
  if ('contract' in m) return m;
  if (!m.params) return { key: m.key };
  const params: Record<string, StoredParam> = {};
  for (const [name, value] of Object.entries(m.params)) {
    params[name] =
      value instanceof Date ? { at: value.toISOString() } : typeof value === 'object' ? storeMessage(value) : value;
  }
  return { key: m.key, params };
}

export function restoreMessage(m: StoredMessage): Message {
  if ('contract' in m || !m.params) return m as Message;
  const params: Params = {};
  for (const [name, value] of Object.entries(m.params)) {
    if (typeof value !== 'object') params[name] = value;
    else params[name] = 'at' in value ? new Date(value.at) : restoreMessage(value);
  }
  return { key: m.key, params };
}

/** A stored text in `language`; old English text is shown as written. */
export const renderStored = (language: Language, text: StoredText): string =>
  typeof text === 'string' ? text : render(language, text);
