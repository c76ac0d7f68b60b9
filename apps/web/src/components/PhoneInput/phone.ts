import {
  AsYouType,
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/core';
import { examples, metadata } from 'virtual:phone-metadata';

/** Uganda is the default; Uganda and Kenya lead the list (spec points 1 and 9). */
export const DEFAULT_COUNTRY: CountryCode = 'UG';
export const PREFERRED_COUNTRIES: CountryCode[] = ['UG', 'KE'];

export interface CountryOption {
  value: CountryCode;
  label: string;
}

function countryName(code: CountryCode, names: Intl.DisplayNames | null): string {
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Every country the input offers (phone-metadata.ts), labelled "+256 Uganda", preferred countries first.
 * Names come from the catalogue (`auth.phone.countries.<code>`, through `translate`) where it has them:
 * Chromium's Intl knows no Luganda and wrote "Uganda" for "Yuganda"; else from the browser's Intl.
 */
export function countryOptions(locale = 'en', translate?: (key: string) => string): CountryOption[] {
  const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames([locale], { type: 'region' }) : null;
  const nameOf = (code: CountryCode) => {
    const key = `auth.phone.countries.${code}`;
    const own = translate?.(key);
    return own && own !== key ? own : countryName(code, names);
  };
  const option = (code: CountryCode): CountryOption => ({
    value: code,
    label: `+${getCountryCallingCode(code, metadata)} ${nameOf(code)}`,
  });
  const rest = getCountries(metadata)
    .filter((c) => !PREFERRED_COUNTRIES.includes(c))
    .map(option)
    .sort((a, b) => a.label.slice(a.label.indexOf(' ')).localeCompare(b.label.slice(b.label.indexOf(' ')), locale));
  return [...PREFERRED_COUNTRIES.map(option), ...rest];
}

/** A country code the list offers, or null (an unavailable code is rejected). */
export function availableCountry(code: string | null | undefined): CountryCode | null {
  if (!code) return null;
  const upper = code.trim().toUpperCase() as CountryCode;
  return isSupportedCountry(upper, metadata) ? upper : null;
}

/** The country's example mobile number in national form, for the 'Example:' hint. */
export function exampleNumber(country: CountryCode | null): string | null {
  if (!country) return null;
  return getExampleNumber(country, examples, metadata)?.formatNational() ?? null;
}

export interface PhoneAnalysis {
  /** What the model holds: E.164 when valid, otherwise the typed text. */
  value: string;
  /** What the input shows: the national form when valid, otherwise the typed text. */
  display: string;
  valid: boolean;
  /** The country the selector should show after this input. `undefined` keeps the current one. */
  country: CountryCode | null | undefined;
}

/**
 * Reads what the user typed against the selected country. A number starting with +CC picks its
 * country; a +CC that no country uses clears the country.
 */
export function analysePhone(text: string, selected: CountryCode | null): PhoneAnalysis {
  const trimmed = text.trim();
  if (!trimmed) return { value: '', display: text, valid: false, country: undefined };
  let country: CountryCode | null | undefined;
  if (trimmed.startsWith('+')) {
    const typer = new AsYouType(undefined, metadata);
    typer.input(trimmed);
    const detected = typer.getCountry();
    const callingCode = typer.getCallingCode();
    const digits = trimmed.replace(/\D/g, '');
    if (detected) country = detected;
    else if (callingCode) {
      // A shared calling code (+1, +7, ...): keep the selection when it fits.
      if (!selected || getCountryCallingCode(selected, metadata) !== callingCode) country = undefined;
    } else if (digits.length >= 3) country = null; // no country has this code
  }
  const effective = country === undefined ? selected : country;
  const parsed = trimmed.startsWith('+')
    ? parsePhoneNumberFromString(trimmed, metadata)
    : effective
      ? parsePhoneNumberFromString(trimmed, effective, metadata)
      : undefined;
  if (parsed?.isValid() && (!effective || parsed.country === effective || trimmed.startsWith('+'))) {
    return {
      value: parsed.number,
      display: parsed.formatNational(),
      valid: true,
      country: parsed.country ?? country,
    };
  }
  return { value: text, display: text, valid: false, country };
}

/** An E.164 number as people read it: "+254 712 345 678". */
export function formatInternational(e164: string): string {
  return parsePhoneNumberFromString(e164, metadata)?.formatInternational() ?? e164;
}

const LAST_COUNTRY = 'kutu.phoneCountry';

/** Remembers the country of a number this device signed up or in with: the account's region next time. */
export function rememberCountry(e164: string) {
  const country = parsePhoneNumberFromString(e164, metadata)?.country;
  try {
    if (country) localStorage.setItem(LAST_COUNTRY, country);
  } catch {
    // Storage refused (private mode): the browser's region is used next time.
  }
}

/**
 * The country a number typed without +CC is read in: the account's (the last number used on this
 * device), else the browser's region (en-KE → Kenya; Luganda → Uganda), else Uganda.
 */
export function regionCountry(languages: readonly string[] = globalThis.navigator?.languages ?? []): CountryCode {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(LAST_COUNTRY);
  } catch {
    saved = null;
  }
  const account = availableCountry(saved);
  if (account) return account;
  for (const tag of languages) {
    const [language, ...rest] = tag.split(/[-_]/);
    const region = rest.find((part) => /^[A-Za-z]{2}$/.test(part));
    const fromRegion = availableCountry(region);
    if (fromRegion) return fromRegion;
    if (language?.toLowerCase() === 'lg') return 'UG';
  }
  return DEFAULT_COUNTRY;
}

/** The parts of a stored E.164 value, to show it again. */
export function fromValue(value: string): { country: CountryCode | null; display: string } | null {
  if (!value.startsWith('+')) return null;
  const parsed = parsePhoneNumberFromString(value, metadata);
  if (!parsed?.isValid() || !parsed.country) return null;
  return { country: parsed.country, display: parsed.formatNational() };
}
