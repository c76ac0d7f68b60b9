import { addScreenStrings } from './i18n.ts';
import english from './locales/en.json?part=officer';

/**
 * Resolved once the officer's week strings are in (lib/locale-parts.ts `OFFICER_SECTIONS`): English's
 * (these) and the language on screen. The officer's page re-exports it; the router waits for it.
 */
export const screenStringsReady = addScreenStrings('officer', english);
