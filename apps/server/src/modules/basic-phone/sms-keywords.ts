import { type District, districts, type Language } from '@kutu/contract';

/** What an inbound SMS asks for. */
export type SmsCommand =
  | { kind: 'help' | 'stop' | 'start' | 'alertsOn' | 'alertsOff' | 'callMe' | 'photosOn' | 'photosOff' }
  | { kind: 'district'; name: string }
  | { kind: 'delete'; code: string | null }
  | { kind: 'fields' | 'walkHow' }
  /** A walk of the field of that number (null: the farmer's only field), counted in two totals. */
  | { kind: 'walk'; field: number | null; rust: number; looked: number };

/**
 * The keywords in each language (docs/decisions/0051; docs/phones.md, "SMS keywords"). The first word decides;
 * case, accents and punctuation do not matter. "ALERTS" takes ON/OFF in any of the three languages; "WALK"
 * takes a field's number and two counts (`walkCommand`).
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
    fields: ['FIELDS', 'FIELD'],
    walk: ['WALK'],
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
    fields: ['MASHAMBA', 'SHAMBA'],
    walk: ['TEMBEA'],
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
    fields: ['ENNIMIRO', 'NNIMIRO'],
    walk: ['TAMBULA'],
  },
};

const langs = Object.keys(SMS_KEYWORDS) as Language[];

function find(word: string | undefined, group: string): Language | null {
  if (!word) return null;
  return langs.find((l) => SMS_KEYWORDS[l][group].includes(word)) ?? null;
}

/**
 * A walk's counts after the keyword (docs/decisions/0078): the field's number, then the plants with rust and
 * the plants looked at, as "14/50" or "14 50" ("WALK 1 14/50"), in that order: counts the other way round
 * ("60/50", "3/0") are refused with a message, never swapped (docs/decisions/0131). "14/50" alone
 * is a walk of the farmer's only field; anything else (two numbers without "/", one, four) is not a walk.
 */
function walkCommand(rest: string): SmsCommand {
  const numbers = rest.match(/\d+/g) ?? [];
  if (numbers.some((n) => n.length > 4) || rest.split('/').length > 2) return { kind: 'walkHow' };
  const pair = /(\d+) *\/ *(\d+)/.exec(rest);
  let field: number | null;
  let counts: number[];
  if (pair && numbers.length === 3) {
    counts = [Number(pair[1]), Number(pair[2])];
    field = Number(rest.replace(pair[0], ' ').match(/\d+/)?.[0]);
  } else if (numbers.length === 3) {
    [field, ...counts] = numbers.map(Number);
  } else if (pair && numbers.length === 2) {
    field = null;
    counts = [Number(pair[1]), Number(pair[2])];
  } else return { kind: 'walkHow' };
  return { kind: 'walk', field, rust: counts[0]!, looked: counts[1]! };
}

/** The command of an SMS and the language its keyword is in (null when no keyword matched: help). */
export function parseSms(text: string): { command: SmsCommand; language: Language | null } {
  const plain = text.normalize('NFKD').toUpperCase();
  const words = plain
    .replace(/[^A-Z0-9 -]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const [first, second] = words;
  for (const kind of ['help', 'stop', 'start', 'callMe', 'fields'] as const) {
    const language = find(first, kind);
    if (language) return { command: { kind }, language };
  }
  const walk = find(first, 'walk');
  if (walk) {
    // A sign or a decimal point is no count ("-3/5" once read as 3 of 5): the farmer is told how to write it.
    if (/[-+−]\s*\d|\d\s*[.,]\s*\d/.test(plain)) return { command: { kind: 'walkHow' }, language: walk };
    // The text after the keyword, "/" kept: it tells the two counts from the field's number.
    const rest = plain
      .replace(/[^A-Z0-9/]/g, ' ')
      .trim()
      .replace(/^[A-Z]+/, '');
    return { command: walkCommand(rest), language: walk };
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
