import { loadDistricts } from './boundaries.ts';
import { type DistrictFeature, districtAt } from './geo.ts';

/**
 * The district of a position, found on the phone: both countries' outlines (from the service worker's
 * copy when offline) and point in polygon (geo.ts). Loaded only when the farmer taps "use my location".
 */
export async function districtOfPosition(longitude: number, latitude: number): Promise<DistrictFeature | null> {
  const [uganda, kenya] = await Promise.all([loadDistricts('UG'), loadDistricts('KE')]);
  return districtAt([...uganda, ...kenya], [longitude, latitude]);
}
