import { addScreenStrings } from './i18n.ts';
import english from './locales/en.json?part=fields';

/**
 * Resolved once the fields screens' strings are in (lib/locale-parts.ts `FIELDS_SECTIONS`): English's
 * (these) and the language on screen. A fields page re-exports it; the router waits for it.
 */
export const screenStringsReady = addScreenStrings('fields', english);
