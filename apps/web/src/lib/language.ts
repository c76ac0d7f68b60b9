import { useSyncExternalStore } from 'react';
import { type Language, languages, nativeNames } from '@kutu/contract/enums';
import en from './locales/en.json?part=first';

/**
 * The language on screen and the strings of the screens before sign-in, without i18next: the sign-in
 * screen renders with this alone, before the full app (i18next among it) is downloaded (decision 0016's
 * sign-in budget). It reads the same catalogues' first part (lib/locale-parts.ts) that i18next loads;
 * once the full app runs, lib/i18n.ts follows every switch made here and reports its own, so both always
 * show the same language.
 */
export { languages, type Language, nativeNames };
/**
 * Accented, longer English for layout checks (lib/pseudo.ts): never offered in the switch nor taken from
 * the browser, only shown when storage names it (`localStorage.language = 'pseudo'`, as e2e does).
 */
export const PSEUDO = 'pseudo';
export const LANGUAGE_KEY = 'language';
export type Shown = Language | typeof PSEUDO;
type Strings = Record<string, unknown>;

const firstParts = import.meta.glob<Strings>(['./locales/*.json', '!./locales/en.json'], {
  import: 'default',
  query: '?part=first',
});

/** A language's first part: English is bundled, the others are fetched when chosen. */
export function loadFirstPart(language: string): Promise<Strings> {
  if (language === 'en') return Promise.resolve(en);
  if (language === PSEUDO) return import('./pseudo.ts').then((m) => m.pseudoLocalize(en) as Strings);
  const load = firstParts[`./locales/${language}.json`];
  return load ? load() : Promise.reject(new Error(`No locale file for "${language}"`));
}

export const isLanguage = (value: unknown): value is Language => languages.includes(value as Language);

/** "sw-KE" → "sw"; anything Kutu has no text for → null. */
export function baseLanguage(tag: string | null | undefined): Language | null {
  const base = tag?.toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : null;
}

/** The stored choice, then the browser's languages in order, then English. */
export function detectLanguage(
  stored: string | null = readStored(),
  browser: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
): Shown {
  if (stored === PSEUDO) return PSEUDO;
  const chosen = baseLanguage(stored);
  if (chosen) return chosen;
  for (const tag of browser) {
    const found = baseLanguage(tag);
    if (found) return found;
  }
  return 'en';
}

function readStored(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

let shown: Shown = 'en';
const catalogues: Partial<Record<Shown, Strings>> = { en };
const listeners = new Set<() => void>();
/** The language last asked for: a slower earlier switch never replaces it. */
let wanted: Shown = shown;
/** Who else shows the language (lib/i18n.ts, once the full app runs): a switch waits for them too. */
const followers = new Set<(language: Shown) => Promise<unknown>>();
/** i18next's `t`, once the full app runs: every string it holds (the account parts, added ones) is found. */
let fullTranslator: ((key: string, params?: Params) => string) | null = null;

/**
 * The language chosen, as the server and `<html lang>` know it (pseudo is English): from the moment of
 * the switch, so requests sent while its strings load are answered in it.
 */
export const currentLanguage = (): Language => baseLanguage(wanted) ?? 'en';
/** The language shown, pseudo included. */
export const shownLanguage = (): Shown => shown;
/** The language chosen, pseudo included: shown once its strings are in (lib/i18n.ts starts in it). */
export const chosenLanguage = (): Shown => wanted;

function show(language: Shown, strings: Strings) {
  catalogues[language] = strings;
  if (wanted !== language || shown === language) return;
  shown = language;
  if (typeof document !== 'undefined') document.documentElement.lang = language === PSEUDO ? 'en-XA' : language;
  for (const listener of listeners) listener();
}

/** Loads `language`'s first part and shows it (a language that fails to load leaves the screen as it is). */
async function load(language: Shown): Promise<void> {
  wanted = language;
  const strings = catalogues[language] ?? (await loadFirstPart(language).catch(() => null));
  if (strings) show(language, strings);
  else if (wanted === language) wanted = shown;
}

/** The language detected at start, shown once its strings are in (the first screen waits for it). */
export const languageReady: Promise<void> = load(detectLanguage());

/** Shows `language` now (re-rendering every translated screen) and keeps it for the next visit. */
export async function setLanguage(language: Shown): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Private mode without storage: the choice lasts for this visit.
  }
  wanted = language;
  await Promise.all([...followers].map((follow) => follow(language)));
  await load(language);
}

/**
 * lib/i18n.ts: switch with us (`follow`), translate for us (`translate`), and tell us of a switch made
 * through i18next (`adopt`).
 */
export function followLanguage(
  follow: (language: Shown) => Promise<unknown>,
  translate: (key: string, params?: Params) => string,
): { adopt: (language: string) => void } {
  followers.add(follow);
  fullTranslator = translate;
  return {
    adopt: (language) => {
      const known = language === PSEUDO ? PSEUDO : baseLanguage(language);
      if (known && known !== wanted) void load(known);
    },
  };
}

export type Params = Record<string, string | number>;

function lookup(strings: Strings | undefined, key: string): string | undefined {
  let node: unknown = strings;
  for (const part of key.split('.')) node = (node as Strings | undefined)?.[part];
  return typeof node === 'string' ? node : undefined;
}

/**
 * `key`'s text in the language shown, English where the language lacks it, the key itself where both do;
 * `{{name}}` is replaced by `params.name`, as i18next does (and, once the full app runs, by i18next).
 */
export function t(key: string, params?: Params): string {
  if (fullTranslator) return fullTranslator(key, params);
  const text = lookup(catalogues[shown], key) ?? lookup(en, key) ?? key;
  return params ? text.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, name: string) => String(params[name] ?? all)) : text;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** `t` for a component: it renders again when the language changes. */
export function useStrings(): { t: typeof t; language: Shown } {
  const language = useSyncExternalStore(subscribe, shownLanguage, shownLanguage);
  return { t, language };
}
