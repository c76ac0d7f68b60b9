import { loadDistricts } from '../../../lib/geo/boundaries.ts';
import type { Country } from '../../../lib/geo/geo.ts';

/** A country's district outlines: loaded once, kept forever, read from the service worker's cache offline. */
export const boundariesQuery = (country: Country) => ({
  queryKey: ['outbreak-boundaries', country] as const,
  queryFn: () => loadDistricts(country),
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  // Fetched even with no signal: the service worker answers from its precache (TanStack Query would
  // otherwise pause the query offline and the map would wait for the network forever).
  networkMode: 'always' as const,
});
