/**
 * Basic phones (USSD menu, SMS both ways) without zod (`@kutu/contract/phone-paths`), for screens that
 * should not download the schemas. phone.ts re-exports them.
 */

/** The most characters one USSD screen shows (docs/decisions/0051). */
export const USSD_SCREEN_MAX = 182;

/**
 * The USSD home menu's options, in the order they are numbered: the menu's text and answers, and every text
 * that names an option by its number ("dial *384# and choose 8"), read this list.
 */
export const USSD_HOME = ['rust', 'alerts', 'bookings', 'callback', 'last', 'follow', 'settings', 'fields'] as const;
export type UssdHomeItem = (typeof USSD_HOME)[number];
/** The number a farmer types for the home option. */
export const ussdMenuNumber = (item: UssdHomeItem) => USSD_HOME.indexOf(item) + 1;

export const phoneApi = {
  /** POST from the gateway (form): Africa's Talking's USSD callback; answers text/plain `CON …` / `END …`. */
  ussd: '/api/phone/ussd/',
  /** POST from the gateway (form): Africa's Talking's two-way SMS callback (from, to, text, date, id, linkId). */
  sms: '/api/phone/sms/',
  /** POST (admin or expert): one step of the USSD menu for the try-out screen, as the gateway would send it. */
  simulate: '/api/phone/simulate/',
  /** GET (expert) `?state&page&page_size`: farmers who asked to be called back. */
  callbacks: '/api/phone/callbacks/',
  /** POST (expert): the farmer was called. */
  callbackDone: '/api/phone/callbacks/:id/done/',
  callbackDonePath: (id: number) => `/api/phone/callbacks/${id}/done/`,
} as const;
