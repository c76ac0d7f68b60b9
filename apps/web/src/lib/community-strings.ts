import { addScreenStrings } from './i18n.ts';

/**
 * Resolved once the community board's screens (the posts, a post's comments, a new post) have their strings (lib/locale-parts.ts `FEATURE_SECTIONS`):
 * the language on screen's, English's fetched like another language's (decision 0121). Those pages
 * re-export it; the router waits for it.
 */
export const screenStringsReady = addScreenStrings('community');
