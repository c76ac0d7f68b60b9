import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import { pseudoLocalize } from './pseudo.ts';

/**
 * Every translation has exactly English's strings: no key missing (it would show in English), none
 * extra (a typo'd key is never shown), the same {{placeholders}}, $t(nested) keys and <n> tags (or
 * the sentence loses its number or link), and for each plural the forms the language's grammar uses
 * (Intl.PluralRules). It checks the files present, so a new sw.json or lg.json is checked on arrival.
 */
type Tree = { [key: string]: string | Tree };
const pluralForms = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const pluralSuffix = new RegExp(`_(${pluralForms.join('|')})$`);

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(name, value);
    else for (const [k, v] of flatten(value, name)) out.set(k, v);
  }
  return out;
}

/** "menu.waiting_one" → "menu.waiting" when English has it as a plural (it has a "_other" form). */
function pluralBases(strings: Map<string, string>): Set<string> {
  return new Set([...strings.keys()].filter((k) => k.endsWith('_other')).map((k) => k.replace(pluralSuffix, '')));
}

const tokens = (text: string) =>
  [...text.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}|\$t\([^)]*\)|<\/?[a-zA-Z0-9]+\s*\/?>/g)]
    .map((m) => (m[1] ? `{{${m[1]}}}` : m[0].replace(/\s/g, '')))
    .sort();

function localeProblems(english: Tree, translated: Tree, language: string): string[] {
  const problems: string[] = [];
  const source = flatten(english);
  const target = flatten(translated);
  const plurals = pluralBases(source);
  const needed = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const expected = new Map<string, string>();
  for (const [key, text] of source) {
    const base = key.replace(pluralSuffix, '');
    if (!plurals.has(base)) expected.set(key, text);
    else for (const form of needed) expected.set(`${base}_${form}`, source.get(`${base}_other`) ?? text);
  }
  for (const [key, englishText] of expected) {
    const text = target.get(key);
    if (text === undefined) problems.push(`missing: ${key}`);
    else if (!text.trim()) problems.push(`empty: ${key}`);
    else if (tokens(text).join(' ') !== tokens(englishText).join(' '))
      problems.push(`placeholders or tags differ: ${key} has [${tokens(text)}], English [${tokens(englishText)}]`);
  }
  for (const key of target.keys()) if (!expected.has(key)) problems.push(`extra: ${key}`);
  return problems;
}

const dir = path.join(import.meta.dirname, 'locales');
const translations = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith('.json') && file !== 'en.json')
  .map((file) => file.replace(/\.json$/, ''));

describe('locale files', () => {
  it('English has non-empty strings with a one and other form for each plural', () => {
    const strings = flatten(en);
    for (const [key, text] of strings) expect(text.trim(), key).not.toBe('');
    for (const base of pluralBases(strings)) expect(strings.has(`${base}_one`), base).toBe(true);
  });

  it(`every translation (${translations.join(', ') || 'none yet'}) has exactly English’s strings`, () => {
    const found = translations.map((language) => {
      const translated = JSON.parse(fs.readFileSync(path.join(dir, `${language}.json`), 'utf8')) as Tree;
      return [language, localeProblems(en, translated, language)] as const;
    });
    expect(Object.fromEntries(found)).toEqual(Object.fromEntries(translations.map((language) => [language, []])));
  });

  // The walk read "baalagiddwa model" and "mu Uganda ne Kenya" in Luganda: each language's own word.
  it('writes no English word where the language has its own: modeli, Yuganda', () => {
    const english: Record<string, RegExp[]> = { sw: [/\bmodel\b/i], lg: [/\bmodel\b/i, /\bUganda\b/] };
    const found = translations.flatMap((language) => {
      const strings = flatten(JSON.parse(fs.readFileSync(path.join(dir, `${language}.json`), 'utf8')) as Tree);
      return [...strings]
        .filter(([, text]) => (english[language] ?? []).some((word) => word.test(text)))
        .map(([key]) => `${language}: ${key}`);
    });
    expect(found).toEqual([]);
  });

  it('the pseudo-locale passes the same checks', () => {
    expect(localeProblems(en, pseudoLocalize(en) as Tree, 'en')).toEqual([]);
  });

  it('finds a missing key, an extra key, a lost placeholder or tag and a missing plural form', () => {
    const english: Tree = {
      a: 'Hello {{name}}',
      b: 'Read <0>the terms</0>',
      c: 'Same',
      n_one: '{{count}} leaf',
      n_other: '{{count}} leaves',
    };
    const broken: Tree = { a: 'Habari', b: 'Soma masharti', typo: 'x', n_other: '{{count}} majani' };
    expect(localeProblems(english, broken, 'sw')).toEqual([
      'placeholders or tags differ: a has [], English [{{name}}]',
      'placeholders or tags differ: b has [], English [</0>,<0>]',
      'missing: c',
      'missing: n_one',
      'extra: typo',
    ]);
    // Arabic needs six plural forms, Luganda two.
    expect(localeProblems(english, { ...english }, 'ar').filter((p) => p.startsWith('missing'))).toEqual([
      'missing: n_zero',
      'missing: n_two',
      'missing: n_few',
      'missing: n_many',
    ]);
  });
});
