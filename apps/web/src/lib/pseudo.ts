import type { ResourceKey } from 'i18next';

/**
 * The pseudo-locale: every English string with accented letters, doubled vowels and brackets (about 40 % longer,
 * like Kiswahili and Luganda often are), so a layout check shows both untranslated text (plain ASCII
 * letters stand out), cut-off text (a missing bracket) and text that overflows. `{{placeholders}}`, `$t(nested)` keys and `<0>` tags are
 * kept as they are, or the strings would break.
 */
const accents: Record<string, string> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ó',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ú',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Í',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ó',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Ú',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};
const vowels = /[aeiouyAEIOUY]/;
/** Placeholders, nested keys and numbered or named tags, which i18next and <Trans> must still find. */
const kept = /(\{\{[^}]*\}\}|\$t\([^)]*\)|<\/?[a-zA-Z0-9]+\s*\/?>)/;

export function pseudoText(text: string): string {
  const accented = text
    .split(kept)
    .map((part, i) =>
      i % 2 === 1 ? part : [...part].map((ch) => (accents[ch] ?? ch).repeat(vowels.test(ch) ? 2 : 1)).join(''),
    )
    .join('');
  return `[${accented}]`;
}

/** The whole resource tree, string by string. */
export function pseudoLocalize(resources: ResourceKey): ResourceKey {
  if (typeof resources === 'string') return pseudoText(resources);
  if (resources === null || typeof resources !== 'object') return resources;
  return Object.fromEntries(Object.entries(resources).map(([key, value]) => [key, pseudoLocalize(value)]));
}
