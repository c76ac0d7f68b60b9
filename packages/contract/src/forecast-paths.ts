/** The forecast's API paths, without zod (`@kutu/contract/forecast-paths`): the map and field screens import these. */
export const forecastApi = {
  /** GET (farmer, expert, officer or administrator) `?crop`: every district's risk for the next 7 days, from the latest run. */
  week: '/api/forecast/week/',
  /** GET (farmer, expert or officer) `?crop`: one district's days with what each rests on. */
  district: '/api/forecast/districts/:code/',
  districtPath: (code: string) => `/api/forecast/districts/${encodeURIComponent(code)}/`,
  /** GET (farmer): the caller's live maize and bean fields with their week's rust weather and walk-by day. */
  myFields: '/api/forecast/fields/',
  /** POST (administrator): fetch the weather and run the forecast now (as the job does every 6 hours). */
  run: '/api/forecast/run/',
  /** GET (administrator or national officer): the week's advisories by district before they go out, and the holds. */
  pending: '/api/forecast/advisories/',
  /** POST (administrator or national officer): send the latest run's advisories now, less the districts held. */
  sendNow: '/api/forecast/advisories/send/',
  /** POST (administrator or national officer): hold a district's advisories of this week, with a reason. */
  holds: '/api/forecast/holds/',
  /** POST (administrator or national officer): lift a hold; the district's advisories go at the next send. */
  liftHold: '/api/forecast/holds/:id/lift/',
  liftHoldPath: (id: number) => `/api/forecast/holds/${id}/lift/`,
  /** GET (administrator or national officer): the forecast's score over the weeks someone looked after. */
  score: '/api/forecast/score/',
  /** GET (administrator or national officer): the national bulletin as CSV, the districts to walk first at the top. */
  bulletinCsv: '/api/forecast/bulletin.csv',
  /** GET (administrator or national officer): the same bulletin as PDF, in the reader's language. */
  bulletinPdf: '/api/forecast/bulletin.pdf',
  /** Open feed: no sign-in, rate-limited; risk per district, crop and day as CSV. */
  openCsv: '/api/open/forecast/risk.csv',
  /** Open feed: the same as GeoJSON, one Feature per district and crop with its boundary and days. */
  openGeoJson: '/api/open/forecast/risk.geojson',
} as const;
