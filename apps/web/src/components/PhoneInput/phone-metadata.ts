import type { CountryCode, Examples, MetadataJson } from 'libphonenumber-js/core';

/**
 * The countries the phone input offers: the East African Community, where Kutu's farmers and experts
 * live (Uganda and Kenya first, phone.ts). The web app carries only their numbering rules, cut from
 * libphonenumber's metadata at build time (vite.config.ts, `virtual:phone-metadata`): every country's
 * rules would cost a phone about 30 KiB more on sign-up. The server checks the E.164 form (contract).
 */
export const PHONE_COUNTRIES: readonly CountryCode[] = ['UG', 'KE', 'TZ', 'RW', 'BI', 'SS', 'CD', 'SO'];

/** libphonenumber's `metadata` and example numbers with only `countries` and their calling codes. */
export function phoneMetadata(metadata: MetadataJson, examples: Examples, countries = PHONE_COUNTRIES) {
  const offered = (code: string) => countries.includes(code as CountryCode);
  const only = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).filter(([c]) => offered(c)));
  const callingCodes = Object.entries(metadata.country_calling_codes)
    .map(([code, list]) => [code, list.filter(offered)] as const)
    .filter(([, list]) => list.length > 0);
  return {
    metadata: {
      ...metadata,
      country_calling_codes: Object.fromEntries(callingCodes),
      countries: only(metadata.countries),
      nonGeographic: {},
    } as MetadataJson,
    examples: only(examples) as Examples,
  };
}
