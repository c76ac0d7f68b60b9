import { cutText } from './cut-text.ts';

/**
 * The SMS length rule (docs/decisions/0050): a text goes out in the GSM-7 alphabet where it can (160
 * characters a message; common typographic characters are replaced by their plain forms), else as UCS-2
 * (70). A longer text is split on purpose at word boundaries into numbered parts ("… (1/2)"), never cut.
 */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Characters that take two places (an escape and the character). */
const GSM_EXTENDED = '^{}\\[~]|€';
const gsm = new Set([...GSM_BASIC, ...GSM_EXTENDED]);

const PLAIN: Record<string, string> = {
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '–': '-',
  '—': '-',
  '…': '...',
  '\u00a0': ' ',
};

/** The text with typographic characters made plain, so that more texts fit GSM-7. */
export const plainSms = (text: string) => text.replace(/[‘’“”–—…\u00a0]/g, (c) => PLAIN[c]);

export const isGsm7 = (text: string) => [...text].every((c) => gsm.has(c));

/**
 * A name a person typed (a field's), as an SMS can carry it without going UCS-2 (70 characters a message):
 * typographic characters made plain, any other outside GSM-7 left out; '' when nothing is left.
 */
export const smsSafe = (text: string) =>
  [...plainSms(text)]
    .filter((c) => isGsm7(c))
    .join('')
    .trim();

/** Places a text takes in one message: GSM-7 counts extended characters twice; UCS-2 counts UTF-16 units. */
function size(text: string, gsm7: boolean): number {
  if (!gsm7) return text.length;
  let n = 0;
  for (const c of text) n += GSM_EXTENDED.includes(c) ? 2 : 1;
  return n;
}

const isLink = (word: string) => /^https?:\/\//.test(word);

/**
 * The words of a text as the pieces a part boundary never falls inside: each word, except that a link
 * takes with it the words of its sentence just before it ("See: https://…"), as many as fit one part
 * together, so that no part ends "See:" and the next holds the link alone.
 */
function pieces(words: string[], fits: (text: string) => boolean): string[] {
  const out: string[] = [];
  let sentence: string[] = [];
  for (const word of words) {
    if (isLink(word)) {
      let from = 0;
      while (from < sentence.length && !fits([...sentence.slice(from), word].join(' '))) from++;
      out.push(...sentence.slice(0, from), [...sentence.slice(from), word].join(' '));
      sentence = [];
      continue;
    }
    sentence.push(word);
    if (/[.!?]$/.test(word)) {
      out.push(...sentence);
      sentence = [];
    }
  }
  return [...out, ...sentence];
}

/** The messages a text is sent as: one when it fits, else numbered parts that each fit one message. */
export function smsParts(input: string): string[] {
  // Spaces run together where an optional part of the text was left empty.
  const text = plainSms(input).replace(/ {2,}/g, ' ').trim();
  const gsm7 = isGsm7(text);
  const single = gsm7 ? 160 : 70;
  if (size(text, gsm7) <= single) return [text];
  // Room for " (9/9)" at the end of each part.
  const room = (gsm7 ? 153 : 67) - 6;
  const fits = (part: string) => size(part, gsm7) <= room;
  const parts: string[] = [];
  let current = '';
  for (const piece of pieces(text.split(/ +/), fits)) {
    const next = current ? `${current} ${piece}` : piece;
    if (fits(next)) {
      current = next;
      continue;
    }
    if (current) parts.push(current);
    // A word longer than a part (a long link) is the only thing split inside.
    let rest = piece;
    while (!fits(rest)) {
      // Between whole characters (lib/cut-text.ts): never inside an emoji.
      const head = cutText(rest, room) || rest.slice(0, room);
      parts.push(head);
      rest = rest.slice(head.length);
    }
    current = rest;
  }
  if (current) parts.push(current);
  return parts.map((p, i) => `${p} (${i + 1}/${parts.length})`);
}
