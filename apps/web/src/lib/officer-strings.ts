import { addScreenStrings } from './i18n.ts';

/**
 * Resolved once the officer's week have their strings (lib/locale-parts.ts `OFFICER_SECTIONS`):
 * the language on screen's, English's fetched like another language's (decision 0121). The officer's page
 * re-exports it; the router waits for it.
 */
export const screenStringsReady = addScreenStrings('officer');
