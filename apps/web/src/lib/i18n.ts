import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { lugandaAfterMu } from '@kutu/contract/luganda';
import { chosenLanguage, followLanguage, languages, loadFirstPart, PSEUDO } from './language.ts';
import en from './locales/en.json?part=first';

/**
 * i18next for the full app: English's first part is bundled (the fallback for every missing string);
 * its account and screen parts, and Kiswahili and Luganda, are fetched only when chosen, so the sign-in page on 2G pays for one language. Each file is split
 * in parts (lib/locale-parts.ts): the screens before sign-in's strings (lib/language.ts loads those, and
 * the sign-in screen shows them without i18next), the account screens' with the account shell, the staff
 * and officer screens' with those screens. The language shown is lib/language.ts's: i18next follows it.
 */
const accountParts = import.meta.glob<ResourceKey>(['./locales/*.json', '!./locales/en.json'], {
  import: 'default',
  query: '?part=account',
});
/**
 * Parts that one kind of screen brings with it (lib/staff-strings.ts, lib/officer-strings.ts, lib/fields-strings.ts,
 * and one feature's: lib/community-strings.ts, lib/consultations-strings.ts, lib/outbreak-strings.ts), English's
 * among them: like its account part, fetched only when English (or pseudo) is chosen (decision 0121).
 */
const screenParts = {
  staff: import.meta.glob<ResourceKey>('./locales/*.json', {
    import: 'default',
    query: '?part=staff',
  }),
  officer: import.meta.glob<ResourceKey>('./locales/*.json', {
    import: 'default',
    query: '?part=officer',
  }),
  fields: import.meta.glob<ResourceKey>('./locales/*.json', {
    import: 'default',
    query: '?part=fields',
  }),
  community: import.meta.glob<ResourceKey>('./locales/*.json', {
    import: 'default',
    query: '?part=community',
  }),
  consultations: import.meta.glob<ResourceKey>('./locales/*.json', {
    import: 'default',
    query: '?part=consultations',
  }),
  outbreak: import.meta.glob<ResourceKey>('./locales/*.json', {
    import: 'default',
    query: '?part=outbreak',
  }),
};
type ScreenPart = keyof typeof screenParts;

/**
 * English's account-screen strings, fetched like another language's (a phone in Kiswahili or Luganda
 * never downloads them: every translation has all of English's keys, lib/locales.test.ts): the loader the
 * account shell gives (addAccountStrings), and the strings once asked for, in i18next's store then.
 */
let englishAccountLoader: (() => Promise<ResourceKey>) | null = null;
let englishAccount: Promise<ResourceKey> | null = null;
const needsEnglish = (language: string) => language === 'en' || language === PSEUDO;

function loadEnglishAccount(): Promise<ResourceKey> | null {
  if (!englishAccountLoader) return null;
  englishAccount ??= englishAccountLoader().then((english) => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
    return english;
  });
  return englishAccount;
}
/** The screen parts the screens shown so far brought (addScreenStrings). */
const screensBrought = new Set<ScreenPart>();
/** English's strings of a screen part, once asked for (English or pseudo chosen), in i18next's store then. */
const englishScreens = new Map<ScreenPart, Promise<ResourceKey>>();

function loadEnglishScreen(part: ScreenPart): Promise<ResourceKey> {
  let english = englishScreens.get(part);
  if (!english) {
    english = loadPart(screenParts[part], 'en').then((strings) => {
      i18n.addResourceBundle('en', 'translation', strings, true, true);
      return strings;
    });
    englishScreens.set(part, english);
    // A failed fetch (offline, the file not cached) is tried again by the next screen or switch.
    english.catch(() => englishScreens.delete(part));
  }
  return english;
}
/** Languages loaded before that, with the first part only. */
const firstOnly = new Set<string>();

function loadPart(files: typeof accountParts, language: string): Promise<ResourceKey> {
  const load = files[`./locales/${language}.json`];
  return load ? load() : Promise.reject(new Error(`No locale file for "${language}"`));
}

async function loadAccountPart(language: string): Promise<ResourceKey> {
  if (language === PSEUDO) return (await import('./pseudo.ts')).pseudoLocalize((await loadEnglishAccount())!);
  return loadPart(accountParts, language);
}

async function loadScreenPart(part: ScreenPart, language: string): Promise<ResourceKey> {
  if (language === PSEUDO) return (await import('./pseudo.ts')).pseudoLocalize(await loadEnglishScreen(part));
  return loadPart(screenParts[part], language);
}

/**
 * The screen parts brought so far, in this language, and those a screen brings while they load: a screen
 * preloaded with the shell may register its part after a language began to load and before it is in
 * i18next's store, where addScreenStrings would not see it (its strings would stay English).
 */
async function loadScreenParts(language: string, loaded = new Set<ScreenPart>()): Promise<ResourceKey[]> {
  const strings: ResourceKey[] = [];
  for (;;) {
    const missing = [...screensBrought].filter((part) => !loaded.has(part));
    if (missing.length === 0) return strings;
    for (const part of missing) loaded.add(part);
    strings.push(...(await Promise.all(missing.map((part) => loadScreenPart(part, language)))));
  }
}

/**
 * A language chosen before the account shell loads gets its first part; after, both parts (fetched
 * side by side). One whose first part arrives after the shell did gets its account part then.
 */
const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, done) {
    const first = loadFirstPart(language);
    const account = englishAccountLoader && loadAccountPart(language);
    const parts = new Set<ScreenPart>();
    Promise.all([first, account, loadScreenParts(language, parts)])
      .then(async ([strings, accountStrings, screenStrings]) => {
        const rest = accountStrings ?? (englishAccountLoader && (await loadAccountPart(language)));
        if (!rest) firstOnly.add(language);
        // And those a screen brought meanwhile.
        return Object.assign({}, strings, rest, ...screenStrings, ...(await loadScreenParts(language, parts)));
      })
      .then(
        (strings) => done(null, strings),
        (err: Error) => done(err, false),
      );
  },
};

/**
 * Called by the account shell with the loader of English's account strings: English's are fetched if
 * English (or pseudo) is chosen or on screen, and every language already loaded gets its account part
 * (so the shell renders in the language on screen, never a key).
 */
export async function addAccountStrings(loadEnglish: () => Promise<ResourceKey>): Promise<void> {
  if (englishAccountLoader) return;
  englishAccountLoader = loadEnglish;
  await Promise.all([
    (needsEnglish(chosenLanguage()) || needsEnglish(i18n.language)) && loadEnglishAccount(),
    ...[...firstOnly].map(async (language) => {
      i18n.addResourceBundle(language, 'translation', await loadAccountPart(language), true, true);
      firstOnly.delete(language);
    }),
  ]);
}

/**
 * Called by a kind of screen (lib/staff-strings.ts, lib/fields-strings.ts, …) with its part: English's is
 * fetched if English (or pseudo) is chosen or on screen, and every language already loaded gets that part,
 * so the screen renders in the language on screen.
 */
export async function addScreenStrings(part: ScreenPart): Promise<void> {
  if (screensBrought.has(part)) return;
  screensBrought.add(part);
  const loaded = Object.keys(i18n.store.data).filter((language) => language !== 'en');
  await Promise.all([
    (needsEnglish(chosenLanguage()) || needsEnglish(i18n.language)) && loadEnglishScreen(part),
    ...loaded.map(async (language) => {
      i18n.addResourceBundle(language, 'translation', await loadScreenPart(part, language), true, true);
    }),
  ]);
}

void i18n
  .use(lazyLocales)
  .use(initReactI18next)
  // "Tambula mu Ennimiro 1" → "Tambula mu nnimiro 1": a field's name filled in after "mu" (contract's luganda.ts).
  .use({
    type: 'postProcessor',
    name: 'luganda',
    process: (value: string, _key: unknown, options: { lng?: string }, translator: { language?: string }) =>
      (options.lng ?? translator.language) === 'lg' ? lugandaAfterMu(value) : value,
  })
  .init({
    postProcess: ['luganda'],
    resources: { en: { translation: en } },
    // Other languages come from the backend above even though English is given here.
    partialBundledLanguages: true,
    lng: chosenLanguage(),
    fallbackLng: 'en',
    supportedLngs: [...languages, PSEUDO],
    interpolation: { escapeValue: false },
  });

// A switch made in the app (lib/language.ts) waits for i18next's strings; one made through i18next is reported back.
// A switch to English, once the account shell runs, waits for English's account strings and its screen parts.
const { adopt } = followLanguage(
  async (language) => {
    if (needsEnglish(language))
      await Promise.all([loadEnglishAccount(), ...[...screensBrought].map(loadEnglishScreen)]);
    return i18n.changeLanguage(language);
  },
  (key, params) => i18n.t(key, params ?? {}),
);
i18n.on('languageChanged', adopt);

export default i18n;
