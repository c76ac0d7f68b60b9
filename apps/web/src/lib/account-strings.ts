import { addAccountStrings } from './i18n.ts';
import english from './locales/en.json?part=account';

/** Resolved once the account screens' strings are in: English's (these) and the language on screen. */
export const accountStringsReady = addAccountStrings(english);
