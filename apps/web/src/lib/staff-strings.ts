import { addScreenStrings } from './i18n.ts';

/**
 * Resolved once the staff screens have their strings (lib/locale-parts.ts `STAFF_SECTIONS`):
 * the language on screen's, English's fetched like another language's (decision 0121). A staff page
 * re-exports it; the router waits for it (app/router.tsx).
 */
export const screenStringsReady = addScreenStrings('staff');
