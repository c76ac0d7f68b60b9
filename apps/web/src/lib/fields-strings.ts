import { addScreenStrings } from './i18n.ts';

/**
 * Resolved once the fields screens have their strings (lib/locale-parts.ts `FIELDS_SECTIONS`):
 * the language on screen's, English's fetched like another language's (decision 0121). A fields page
 * re-exports it; the router waits for it.
 */
export const screenStringsReady = addScreenStrings('fields');
