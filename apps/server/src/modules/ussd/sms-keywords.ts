import { type District, districts, type Language } from '@kutu/contract';

/** What an inbound SMS asks for. */
export type SmsCommand =
  | { kind: 'help' | 'stop' | 'start' | 'alertsOn' | 'alertsOff' | 'callMe' | 'photosOn' | 'photosOff' }
  | { kind: 'district'; name: string }
  | { kind: 'delete'; code: string | null };

/**
 * The keywords in each language (docs/decisions/0051; README "SMS keywords"). The first word decides;
 * case, accents and punctuation do not matter. "ALERTS" takes ON/OFF in any of the three languages.
 */
export const SMS_KEYWORDS: Record<Language, Record<string, string[]>> = {
  en: {
    help: ['HELP', 'INFO'],
    stop: ['STOP', 'UNSUBSCRIBE'],
    start: ['START'],
    alerts: ['ALERTS', 'ALERT'],
    on: ['ON'],
    off: ['OFF'],
    district: ['DISTRICT', 'COUNTY'],
    callMe: ['CALL'],
    delete: ['DELETE'],
    photos: ['PHOTOS'],
  },
  sw: {
    help: ['MSAADA'],
    stop: ['ACHA', 'SIMAMISHA'],
    start: ['ANZA'],
    alerts: ['ARIFA'],
    on: ['WASHA'],
    off: ['ZIMA'],
    district: ['WILAYA', 'KAUNTI'],
    callMe: ['NIPIGIE'],
    delete: ['FUTA'],
    photos: ['PICHA'],
  },
  lg: {
    help: ['YAMBA'],
    stop: ['KOMYA', 'LEKERA'],
    start: ['TANDIKA'],
    alerts: ['OBUBAKA'],
    on: ['KOLEEZA'],
    off: ['ZIKIZA'],
    district: ['DISITULIKITI'],
    callMe: ['NKUBIRA'],
    delete: ['SAZAAMU'],
    photos: ['EBIFAANANYI'],
  },
};

const langs = Object.keys(SMS_KEYWORDS) as Language[];

function find(word: string | undefined, group: string): Language | null {
  if (!word) return null;
  return langs.find((l) => SMS_KEYWORDS[l][group].includes(word)) ?? null;
}

/** The command of an SMS and the language its keyword is in (null when no keyword matched: help). */
export function parseSms(text: string): { command: SmsCommand; language: Language | null } {
  const words = text
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9 -]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const [first, second] = words;
  for (const kind of ['help', 'stop', 'start', 'callMe'] as const) {
    const language = find(first, kind);
    if (language) return { command: { kind }, language };
  }
  // DELETE asks for a code; DELETE and the code erases the account (the code is 4 digits, nothing else).
  const erase = find(first, 'delete');
  if (erase)
    return { command: { kind: 'delete', code: /^\d{4}$/.test(second ?? '') ? second : null }, language: erase };
  // PHOTOS ON / OFF: the consent to photos training the model (ON/OFF in any of the three languages).
  const photos = find(first, 'photos');
  if (photos) {
    if (find(second, 'off')) return { command: { kind: 'photosOff' }, language: photos };
    if (find(second, 'on')) return { command: { kind: 'photosOn' }, language: photos };
    return { command: { kind: 'help' }, language: photos };
  }
  const alerts = find(first, 'alerts');
  if (alerts) {
    if (find(second, 'off')) return { command: { kind: 'alertsOff' }, language: alerts };
    if (find(second, 'on')) return { command: { kind: 'alertsOn' }, language: alerts };
    return { command: { kind: 'help' }, language: alerts };
  }
  const district = find(first, 'district');
  if (district) return { command: { kind: 'district', name: words.slice(1).join(' ') }, language: district };
  return { command: { kind: 'help' }, language: null };
}

const plain = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');

/** The shipped district or county a name means: the exact name, else the only one it starts. */
export function districtNamed(name: string): District | undefined {
  const q = plain(name);
  if (!q) return undefined;
  const exact = districts.find((d) => plain(d.name) === q);
  if (exact) return exact;
  const starting = districts.filter((d) => plain(d.name).startsWith(q));
  return starting.length === 1 ? starting[0] : undefined;
}
