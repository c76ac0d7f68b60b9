import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { type Language, languages, nativeNames } from '@kutu/contract/enums';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json?part=first';

/**
 * English is bundled (the fallback for every missing string); Kiswahili and Luganda are fetched only
 * when chosen, so the sign-in page on 2G pays for one language. Each file is split in two
 * (lib/locale-parts.ts): the screens before sign-in's strings here, the account screens' with the
 * account shell. The globs list the locale files that exist when the app is built: a language whose
 * file is not written yet falls back to English instead of breaking the build.
 */
export { languages, type Language };
/** How each language names itself in the switch (never translated). */
export { nativeNames };
/**
 * Accented, longer English for layout checks (lib/pseudo.ts): never offered in the switch nor taken from
 * the browser, only shown when storage names it (`localStorage.language = 'pseudo'`, as e2e does). Its
 * code is a chunk of its own, downloaded only then.
 */
export const PSEUDO = 'pseudo';
export const LANGUAGE_KEY = 'language';

const firstParts = import.meta.glob<ResourceKey>(['./locales/*.json', '!./locales/en.json'], {
  import: 'default',
  query: '?part=first',
});
const accountParts = import.meta.glob<ResourceKey>(['./locales/*.json', '!./locales/en.json'], {
  import: 'default',
  query: '?part=account',
});
/** Parts that one kind of screen brings with it (lib/staff-strings.ts, lib/officer-strings.ts). */
const screenParts = {
  staff: import.meta.glob<ResourceKey>(['./locales/*.json', '!./locales/en.json'], {
    import: 'default',
    query: '?part=staff',
  }),
  officer: import.meta.glob<ResourceKey>(['./locales/*.json', '!./locales/en.json'], {
    import: 'default',
    query: '?part=officer',
  }),
};
type ScreenPart = keyof typeof screenParts;

/** English's account-screen strings, once the account shell has brought them (addAccountStrings). */
let englishAccount: ResourceKey | null = null;
/** English's strings of each screen part, once a screen has brought them (addScreenStrings). */
const englishScreen: Partial<Record<ScreenPart, ResourceKey>> = {};
/** Languages loaded before that, with the first part only. */
const firstOnly = new Set<string>();

function loadPart(files: typeof firstParts, language: string): Promise<ResourceKey> {
  const load = files[`./locales/${language}.json`];
  return load ? load() : Promise.reject(new Error(`No locale file for "${language}"`));
}

async function loadAccountPart(language: string, english: ResourceKey): Promise<ResourceKey> {
  if (language === PSEUDO) return (await import('./pseudo.ts')).pseudoLocalize(english);
  return loadPart(accountParts, language);
}

async function loadScreenPart(part: ScreenPart, language: string, english: ResourceKey): Promise<ResourceKey> {
  if (language === PSEUDO) return (await import('./pseudo.ts')).pseudoLocalize(english);
  return loadPart(screenParts[part], language);
}

/** The screen parts already brought, in this language. */
const loadScreenParts = (language: string) =>
  Promise.all(
    (Object.entries(englishScreen) as [ScreenPart, ResourceKey][]).map(([part, english]) =>
      loadScreenPart(part, language, english),
    ),
  );

/**
 * A language chosen before the account shell loads gets its first part; after, both parts (fetched
 * side by side). One whose first part arrives after the shell did gets its account part then.
 */
const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, done) {
    const first =
      language === PSEUDO ? import('./pseudo.ts').then((m) => m.pseudoLocalize(en)) : loadPart(firstParts, language);
    const account = englishAccount && loadAccountPart(language, englishAccount);
    Promise.all([first, account, loadScreenParts(language)])
      .then(async ([strings, accountStrings, screenStrings]) => {
        const rest = accountStrings ?? (englishAccount && (await loadAccountPart(language, englishAccount)));
        if (!rest) firstOnly.add(language);
        return Object.assign({}, strings, rest, ...screenStrings);
      })
      .then(
        (strings) => done(null, strings),
        (err: Error) => done(err, false),
      );
  },
};

/**
 * Called by the account shell with English's account strings: adds them, and every language already
 * loaded gets its account part (so the shell renders in the language on screen, never a key).
 */
export async function addAccountStrings(english: ResourceKey): Promise<void> {
  if (englishAccount) return;
  englishAccount = english;
  i18n.addResourceBundle('en', 'translation', english, true, true);
  await Promise.all(
    [...firstOnly].map(async (language) => {
      i18n.addResourceBundle(language, 'translation', await loadAccountPart(language, english), true, true);
      firstOnly.delete(language);
    }),
  );
}

/**
 * Called by a kind of screen (lib/staff-strings.ts, lib/officer-strings.ts) with English's strings of its
 * part: adds them, and every language already loaded gets that part, so the screen renders in the
 * language on screen.
 */
export async function addScreenStrings(part: ScreenPart, english: ResourceKey): Promise<void> {
  if (englishScreen[part]) return;
  englishScreen[part] = english;
  i18n.addResourceBundle('en', 'translation', english, true, true);
  const loaded = Object.keys(i18n.store.data).filter((language) => language !== 'en');
  await Promise.all(
    loaded.map(async (language) => {
      i18n.addResourceBundle(language, 'translation', await loadScreenPart(part, language, english), true, true);
    }),
  );
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
): Language | typeof PSEUDO {
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

/**
 * The language chosen now, as the server and `<html lang>` know it (pseudo is English). Strings missing
 * from its file show in English, but dates, numbers and the server's replies still follow the choice.
 */
export function currentLanguage(): Language {
  return baseLanguage(i18n.language) ?? 'en';
}

function markDocument(language: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = language === PSEUDO ? 'en-XA' : language;
}
i18n.on('languageChanged', markDocument);

void i18n
  .use(lazyLocales)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    // Other languages come from the backend above even though English is given here.
    partialBundledLanguages: true,
    lng: detectLanguage(),
    fallbackLng: 'en',
    supportedLngs: [...languages, PSEUDO],
    interpolation: { escapeValue: false },
  });

/** Shows `language` now (re-rendering every translated screen) and keeps it for the next visit. */
export async function setLanguage(language: Language | typeof PSEUDO): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Private mode without storage: the choice lasts for this visit.
  }
  await i18n.changeLanguage(language);
}

export default i18n;
