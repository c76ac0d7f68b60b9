import { addScreenStrings } from './i18n.ts';

/**
 * Resolved once the outbreak map and the review queue (its district filter names the countries) have their strings (lib/locale-parts.ts `FEATURE_SECTIONS`):
 * the language on screen's, English's fetched like another language's (decision 0121). Those
 * pages re-export it; the router waits for it.
 */
export const screenStringsReady = addScreenStrings('outbreak');
