/** Finds the visitor's country (ISO 3166 alpha-2) to pre-select the phone country. */
export type CountryLookup = (signal: AbortSignal) => Promise<string | null>;

/** A public IP-geolocation service answering `{country_code}` (for example https://ipapi.co/json/). */
export function httpCountryLookup(url: string): CountryLookup {
  return async (signal) => {
    const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`Country lookup failed (${res.status})`);
    const data = (await res.json()) as { country_code?: unknown };
    return typeof data.country_code === 'string' ? data.country_code : null;
  };
}

/**
 * The lookup configured by VITE_GEOIP_URL, or none. Off by default: the Content-Security-Policy
 * allows only 'self', so a deployment that sets the URL must also allow it in connect-src.
 */
export function configuredCountryLookup(): CountryLookup | null {
  const url = import.meta.env.VITE_GEOIP_URL as string | undefined;
  return url ? httpCountryLookup(url) : null;
}
