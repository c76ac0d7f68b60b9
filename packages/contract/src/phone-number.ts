/**
 * Whether a phone number in E.164 form is one that can exist (docs/decisions/0127): its calling code is
 * one of the countries Kutu serves (phone-metadata.build.ts) and its length is possible there, by
 * libphonenumber-js's maintained rules. Every entry point takes numbers through this: sign-up, a clinic
 * visit, the administrator's command, the USSD and SMS gateway's numbers, so they all agree.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/core';
import { phoneMetadata } from './phone-metadata.ts';

/** What a refused number is told, in the contract's English (the web shows its own words for the key). */
export const IMPOSSIBLE_PHONE = 'This phone number cannot exist: check the country code and the number of digits';

/** True when `e164` (`+` and digits) is a possible number of one of the countries served. */
export function possiblePhone(e164: string): boolean {
  if (!/^\+[1-9]\d{6,14}$/.test(e164)) return false;
  const parsed = parsePhoneNumberFromString(e164, phoneMetadata);
  return parsed?.isPossible() === true;
}
