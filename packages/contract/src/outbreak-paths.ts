/**
 * Outbreak watch's constants, API paths and crops, without zod (`@kutu/contract/outbreak-paths`): the map
 * screen imports these and not outbreak.ts, whose schemas would add zod (~30 KiB brotli) to its download
 * (the byte budget of bench/bundle-size.ts). outbreak.ts re-exports them.
 */
import { analysisCrops } from './enums.ts';

/** Counts below this are hidden, all alike ("0 to 2", `<3`): the one place the minimum is set (docs/decisions/0033, 0065). */
export const SMALL_COUNT_MIN: number = 3;
/**
 * The words of the hidden range, for every text that says it ("0 to {{max}}", "below {{min}}"): the catalogues
 * never write the number, so changing SMALL_COUNT_MIN changes every surface.
 */
export const SMALL_COUNT_WORDS: Readonly<{ min: number; max: number }> = {
  min: SMALL_COUNT_MIN,
  max: SMALL_COUNT_MIN - 1,
};
/**
 * A farmer's changed district counts for surveillance only this many days after the change (docs/decisions/
 * 0127): until then their walks are judged near or far from the district they had, so a far field stays held.
 */
export const DISTRICT_SETTLE_DAYS = 28;
/** The map shades districts by confirmed cases in this many days (the alert rule's window too). */
export const MAP_WINDOW_DAYS = 14;
/** Weeks in a district's trend. */
export const TREND_WEEKS = 12;

/** API paths of outbreak watch, under /api/ with trailing slashes. `:code` is a district code (`UG-411`). */
export const outbreakApi = {
  /** GET (farmer, expert or officer) `?crop&days`: per district, confirmed and reported cases in the window. */
  map: '/api/outbreak/map/',
  /** GET (farmer, expert or officer) `?crop`: a district's weekly confirmed and reported cases over TREND_WEEKS. */
  trend: '/api/outbreak/districts/:code/trend/',
  trendPath: (code: string) => `/api/outbreak/districts/${encodeURIComponent(code)}/trend/`,
  /** GET (expert) `?crop&country&page&page_size`: the district table, unreviewed reported cases first. */
  districts: '/api/outbreak/districts/',
  /** GET (expert) `?crop&from&to`: weekly counts per district and crop as CSV (text/csv). */
  exportCsv: '/api/outbreak/export.csv',
  /** GET / PUT (signed in, any role): the caller's district and whether outbreak alerts come by SMS. */
  settings: '/api/outbreak/settings/',
  /** Open feed: read-only, no sign-in, rate-limited; weekly confirmed counts per district and crop. */
  openGeoJson: '/api/open/outbreak/weekly.geojson',
  openCsv: '/api/open/outbreak/weekly.csv',
} as const;

/** The crops cases are counted for: the crop the farmer said the photo shows (none said counts as `other`). */
export const outbreakCrops = analysisCrops;
