import { addAccountStrings } from './i18n.ts';

/**
 * Resolved once the account screens' strings are in: the language on screen's, English's only when
 * English (or pseudo) is chosen (lib/i18n.ts), so a phone in Kiswahili or Luganda downloads one language.
 */
export const accountStringsReady = addAccountStrings(() =>
  import('./locales/en.json?part=account').then((m) => m.default),
);
