/** The forecast's API paths, without zod (`@kutu/contract/forecast-paths`): the map and field screens import these. */
export const forecastApi = {
  /** GET (farmer, expert or officer) `?crop`: every district's risk for the next 7 days, from the latest run. */
  week: '/api/forecast/week/',
  /** GET (farmer, expert or officer) `?crop`: one district's days with what each rests on. */
  district: '/api/forecast/districts/:code/',
  districtPath: (code: string) => `/api/forecast/districts/${encodeURIComponent(code)}/`,
  /** GET (farmer): the caller's live maize and bean fields with their week's rust weather and walk-by day. */
  myFields: '/api/forecast/fields/',
  /** POST (administrator): fetch the weather and run the forecast now (as the job does every 6 hours). */
  run: '/api/forecast/run/',
  /** GET (administrator): the national bulletin as CSV, the districts to walk first at the top. */
  bulletinCsv: '/api/forecast/bulletin.csv',
  /** Open feed: no sign-in, rate-limited; risk per district, crop and day as CSV. */
  openCsv: '/api/open/forecast/risk.csv',
  /** Open feed: the same as GeoJSON, one Feature per district and crop with its boundary and days. */
  openGeoJson: '/api/open/forecast/risk.geojson',
} as const;
