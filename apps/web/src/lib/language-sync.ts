import type { LanguageBody, UserRecord } from '@kutu/contract';
import { api } from '@kutu/contract/paths';
import { http } from './api.ts';
import { currentLanguage, isLanguage, type Language, setLanguage } from './language.ts';
import { session } from './session.ts';

/** The part of the user record this module reads; a user record saved before accounts had a language has none. */
type AccountLanguage = Partial<Pick<UserRecord, 'language'>>;

/**
 * Sent on `window` once the account has stored a new language: texts the server writes when they are
 * read (notifications) are fetched again in it. An event, so this module (loaded before sign-in)
 * needs no query cache.
 */
export const LANGUAGE_SAVED = 'kutu:language-saved';

/** A choice made in the switch that no account has stored yet (signed out, or the request failed). */
const UNSAVED_KEY = 'languageUnsaved';
const unsaved = (): Language | null => {
  const value = localStorage.getItem(UNSAVED_KEY);
  return isLanguage(value) ? value : null;
};

/** A sign-up body with the language on screen, so the new account (and its emails) starts in it. */
export function withLanguage<B extends object>(body: B): B & LanguageBody {
  return { ...body, language: currentLanguage() };
}

/**
 * The user picked `language` in the switch: the screen changes at once; a signed-in account stores it.
 * A failed request never undoes the switch: the choice is kept and sent again on the next switch or
 * sign-in.
 */
export async function chooseLanguage(language: Language): Promise<void> {
  localStorage.setItem(UNSAVED_KEY, language);
  await setLanguage(language);
  if (session.accessToken()) await saveAccountLanguage(language);
}

async function saveAccountLanguage(language: Language): Promise<void> {
  try {
    const reply = await http.put<LanguageBody>(api.auth.language, { language } satisfies LanguageBody);
    if (unsaved() === language) localStorage.removeItem(UNSAVED_KEY);
    if (typeof window !== 'undefined') window.dispatchEvent(new Event(LANGUAGE_SAVED));
    const user = session.user();
    if (user && isLanguage(reply?.language)) {
      const updated = { ...user, language: reply.language };
      session.setUser(updated);
    }
  } catch {
    // Kept in UNSAVED_KEY: the next switch or sign-in sends it again.
  }
}

/**
 * A user record arrived (sign-in, or the account check on every visit): show the account's language,
 * unless a choice made on this phone has not reached the account yet (picked on the sign-in screen,
 * or while the network was down), which is the user's latest word and is sent instead.
 */
export function adoptAccountLanguage(user: AccountLanguage | null): void {
  if (!user) return;
  const pending = unsaved();
  if (pending) {
    void saveAccountLanguage(pending);
    return;
  }
  if (isLanguage(user.language) && user.language !== currentLanguage()) void setLanguage(user.language);
}

/** Follows the stored session from app start: each new user record is adopted once. */
export function startLanguageSync(): () => void {
  let seen: string | null = null;
  const check = () => {
    const user = session.accessToken() ? session.user() : null;
    const key = user ? JSON.stringify(user) : null;
    if (key === seen) return;
    seen = key;
    adoptAccountLanguage(user as AccountLanguage | null);
  };
  check();
  const unsubscribe = session.subscribe(check);
  return () => {
    unsubscribe();
  };
}
