import ugandaUrl from '../../../../../packages/contract/geo/uganda-districts.topojson?url';
import kenyaUrl from '../../../../../packages/contract/geo/kenya-counties.topojson?url';
import { type Country, type DistrictFeature, type DistrictTopology, districtFeatures } from './geo.ts';

/**
 * The boundary files' addresses in the build (content-hashed, under /assets). The service worker
 * precaches them with the app (vite.config.ts globPatterns), so they are on the phone before the map is
 * first opened and stay readable offline.
 */
export const BOUNDARY_URLS: Record<Country, string> = { UG: ugandaUrl, KE: kenyaUrl };

const loading = new Map<Country, Promise<DistrictFeature[]>>();

/** A country's district outlines, fetched once per page load. */
export function loadDistricts(country: Country): Promise<DistrictFeature[]> {
  let features = loading.get(country);
  if (!features) {
    features = fetch(BOUNDARY_URLS[country])
      .then((res) => {
        // The screen says what failed in its own words (outbreak.loadError); this is for the log.
        if (!res.ok) throw new Error(`${BOUNDARY_URLS[country]}: ${res.status}`);
        return res.json() as Promise<DistrictTopology>;
      })
      .then((topology) => districtFeatures(topology, country));
    // A failure (no signal and no saved copy) is not remembered: the next try fetches again.
    features.catch(() => loading.delete(country));
    loading.set(country, features);
  }
  return features;
}
