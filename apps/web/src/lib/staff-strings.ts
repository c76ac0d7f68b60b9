import { addScreenStrings } from './i18n.ts';
import english from './locales/en.json?part=staff';

/**
 * Resolved once the staff screens' strings are in (lib/locale-parts.ts `STAFF_SECTIONS`): English's
 * (these) and the language on screen. A staff page re-exports it; the router waits for it (app/router.tsx).
 */
export const screenStringsReady = addScreenStrings('staff', english);
