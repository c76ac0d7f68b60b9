/**
 * Outbreak watch: where rust is spreading. Cases are counted per district, crop and ISO week
 * (docs/decisions/0031); the alert rule is docs/decisions/0032; the privacy rule and the open feed are
 * docs/decisions/0033.
 *
 * Privacy: every count on the wire is a `smallCount`: a count below SMALL_COUNT_MIN, 0 included, is sent
 * as `{ count: null, below_min: true }`, never the real number, so "none" and "one or two" look the
 * same (docs/decisions/0052). Nothing that identifies a farm, a person or a photo is ever part of these
 * replies.
 */
import { z } from 'zod';
import { isoDateTime, pageQuery, paginated, numberText } from './common.ts';
import { isDistrictCode } from './districts.ts';
import { districtFeature } from './geojson.ts';

export {
  districts,
  districtByCode,
  districtCodes,
  isDistrictCode,
  type District,
  type DistrictCountry,
} from './districts.ts';

// The constants, paths and crops without zod, for the screens that only need those (outbreak-paths.ts).
import { MAP_WINDOW_DAYS, outbreakCrops, SMALL_COUNT_MIN } from './outbreak-paths.ts';
export {
  DISTRICT_SETTLE_DAYS,
  MAP_WINDOW_DAYS,
  outbreakApi,
  outbreakCrops,
  SMALL_COUNT_MIN,
  SMALL_COUNT_WORDS,
  TREND_WEEKS,
} from './outbreak-paths.ts';

export const outbreakCrop = z.enum(outbreakCrops, { error: 'crop must be maize, beans or other' });
export type OutbreakCrop = z.infer<typeof outbreakCrop>;

/** A district or county code from the shipped list (`UG-411`, `KE-01`). */
export const districtCode = z
  .string({ error: 'Choose your district or county' })
  .trim()
  .toUpperCase()
  .refine(isDistrictCode, 'Choose a district or county from the list');

/**
 * A count under the privacy rule: `{count: 7, below_min: false}`, `{count: null, below_min: true}`.
 * (`fewer_than_3`, its old name, was sent beside it for one release and is gone.)
 */
export const smallCount = z.object({
  /** The number of cases; null below SMALL_COUNT_MIN (never sent). */
  count: z.number().int().nullable(),
  below_min: z.boolean().describe(`true when the count is below ${SMALL_COUNT_MIN} (count is then null)`),
});
export type SmallCount = z.infer<typeof smallCount>;

/** A cell as published: its count at SMALL_COUNT_MIN or more, else nothing (0). */
export const shownCount = (n: number) => (n >= SMALL_COUNT_MIN ? n : 0);

/** Applies the privacy rule to one published cell (server side only): every count below the minimum looks the same. */
export function toSmallCount(n: number): SmallCount {
  const below = n < SMALL_COUNT_MIN;
  return { count: below ? null : n, below_min: below };
}

/** How the text forms write a small count (CSV cells): the number, or `<` and SMALL_COUNT_MIN (`<3`). */
export function smallCountText(c: Pick<SmallCount, 'count' | 'below_min'>): string {
  return c.below_min ? `<${SMALL_COUNT_MIN}` : String(c.count ?? 0);
}

/** An ISO week `2026-W47` and its Monday `2026-11-16`. */
export const isoWeek = z.string().regex(/^\d{4}-W\d{2}$/);

export const outbreakMapQuery = z.object({
  crop: outbreakCrop.default('maize'),
  days: numberText(
    z
      .number({ error: 'days must be a number' })
      .int()
      .min(7, 'days must be at least 7')
      .max(90, 'days must be at most 90')
      .default(MAP_WINDOW_DAYS),
  ),
});
export type OutbreakMapQuery = z.input<typeof outbreakMapQuery>;

export const outbreakMapDistrict = z.object({
  code: z.string(),
  /** Confirmed by an expert in the window. */
  confirmed: smallCount,
  /** Rust by the model with confidence, not yet reviewed by an expert. */
  reported: smallCount,
  /**
   * Whether try-out data (npm run outbreak:demo) is part of these counts: real and try-out cases are
   * counted apart, each shown only at 3 or more on its own, and the shown ones added.
   */
  demo: z.boolean(),
  /** Whether an outbreak alert is active for this district and crop. */
  alert: z.boolean(),
});
export type OutbreakMapDistrict = z.infer<typeof outbreakMapDistrict>;

export const outbreakMapReply = z.object({
  crop: outbreakCrop,
  window_days: z.number().int(),
  /** First and last day of the window (UTC dates). */
  from: z.iso.date(),
  to: z.iso.date(),
  /** Monday (00:00 UTC) of the ISO week the shown counts last changed in (null when none is shown). */
  data_as_of: isoDateTime.nullable(),
  generated_at: isoDateTime,
  /** Only districts with 3 or more cases in some week of the window, or an alert; others have fewer. */
  districts: z.array(outbreakMapDistrict),
  /** Whether any try-out data is in this reply. */
  demo: z.boolean(),
});
export type OutbreakMapReply = z.infer<typeof outbreakMapReply>;

export const outbreakTrendQuery = z.object({ crop: outbreakCrop.default('maize') });
export const outbreakTrendParams = z.object({ code: districtCode });

export const outbreakWeek = z.object({
  week: isoWeek,
  /** The week's Monday (UTC date). */
  week_start: z.iso.date(),
  confirmed: smallCount,
  reported: smallCount,
  demo: z.boolean(),
});
export type OutbreakWeek = z.infer<typeof outbreakWeek>;

export const outbreakTrendReply = z.object({
  code: z.string(),
  name: z.string(),
  country: z.enum(['UG', 'KE']),
  crop: outbreakCrop,
  /** TREND_WEEKS weeks, oldest first, the current week last (weeks without cases are zeros). */
  weeks: z.array(outbreakWeek),
  data_as_of: isoDateTime.nullable(),
  demo: z.boolean(),
});
export type OutbreakTrendReply = z.infer<typeof outbreakTrendReply>;

export const outbreakTableQuery = pageQuery.extend({
  crop: outbreakCrop.default('maize'),
  country: z.enum(['UG', 'KE'], { error: 'country must be UG or KE' }).optional(),
});
export type OutbreakTableQuery = z.input<typeof outbreakTableQuery>;

export const outbreakTrendDirection = z.enum(['rising', 'falling', 'steady']);
export type OutbreakTrendDirection = z.infer<typeof outbreakTrendDirection>;

/**
 * Whether a district's weekly cases rise or fall, from its last four weeks (oldest first, this week last):
 * the last two weeks against the two before, except that a week with fewer cases than the one before never
 * reads "rising" (0 this week after 2 last week once read "rising", 0 + 2 being more than 0 + 0): it reads
 * "falling". The one rule of the outbreak table, the USSD menu and the officer's week.
 */
export function trendDirection(series: readonly number[]): OutbreakTrendDirection {
  const [a = 0, b = 0, c = 0, d = 0] = [0, 0, 0, 0, ...series].slice(-4);
  const recent = c + d;
  const earlier = a + b;
  if (d < c || recent < earlier) return 'falling';
  return recent > earlier ? 'rising' : 'steady';
}

export const outbreakTableRow = z.object({
  code: z.string(),
  name: z.string(),
  country: z.enum(['UG', 'KE']),
  /** Confirmed and reported cases in the last MAP_WINDOW_DAYS days, summed over the weeks shown (3 or more). */
  confirmed: smallCount,
  reported: smallCount,
  /** Reported cases (model says rust) no expert has reviewed yet: these rows come first. */
  unreviewed: smallCount,
  /** Confirmed cases per week, TREND_WEEKS weeks, oldest first. */
  trend: z.array(smallCount),
  /** Last 2 weeks against the 2 before. */
  direction: outbreakTrendDirection,
  alert: z.boolean(),
  demo: z.boolean(),
});
export type OutbreakTableRow = z.infer<typeof outbreakTableRow>;
/** Only districts with a shown week in the last TREND_WEEKS weeks, by unreviewed desc, confirmed desc, code. */
export const outbreakTablePage = paginated(outbreakTableRow);
export type OutbreakTablePage = z.infer<typeof outbreakTablePage>;

export const outbreakExportQuery = z.object({
  crop: outbreakCrop.optional().describe('One crop; all crops when left out'),
  from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD)' }).optional().describe('Weeks starting on or after'),
  to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD)' }).optional().describe('Weeks starting on or before'),
});
export type OutbreakExportQuery = z.input<typeof outbreakExportQuery>;

/**
 * The CSV export's header (expert): `<3` stands for 0, 1 or 2 cases; `demo` is `true` for a line of
 * try-out cases only: a week's real and try-out cases are lines of their own, never added together.
 */
export const OUTBREAK_EXPORT_COLUMNS = [
  'week',
  'week_start',
  'district_code',
  'district_name',
  'country',
  'crop',
  'confirmed',
  'reported',
  'demo',
] as const;

/** The open feed's query: crop and how many weeks back (the current week included). */
export const openFeedQuery = z.object({
  crop: outbreakCrop.optional().describe('One crop; all crops when left out'),
  weeks: numberText(
    z
      .number({ error: 'weeks must be a number' })
      .int()
      .min(1, 'weeks must be at least 1')
      .max(104, 'weeks must be at most 104')
      .default(12),
  ),
});
export type OpenFeedQuery = z.input<typeof openFeedQuery>;

/**
 * The open CSV's header: confirmed cases, and the fields farmers walked with the median share of plants with
 * rust on them (docs/decisions/0078); a district-week is listed when either count is 3 or more, the other then
 * reading `<3` (a week not listed had fewer of both).
 */
export const OPEN_FEED_CSV_COLUMNS = [
  'week',
  'week_start',
  'district_code',
  'district_name',
  'country',
  'crop',
  'confirmed',
  'fields_walked',
  'median_incidence',
] as const;

/** A district-week's walks as the open feed publishes them: hidden below SMALL_COUNT_MIN fields, with their median. */
export const walkedWeek = {
  fields_walked: smallCount.describe(
    `Fields of the crop farmers walked that week (each field once); below_min unless they belong to ${SMALL_COUNT_MIN} farmers or more`,
  ),
  median_incidence: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe('Median share of plants with rust over those fields (each its latest walk); null when hidden'),
};

/**
 * The open GeoJSON: one Feature per district and crop with any confirmed case or walked field shown in the
 * weeks asked, its geometry the district's boundary (from the shipped files, with their attribution and
 * licence) and its weekly confirmed counts and walks.
 */
export const openFeedFeature = districtFeature(outbreakCrop, {
  weeks: z.array(z.object({ week: isoWeek, week_start: z.iso.date(), confirmed: smallCount, ...walkedWeek })),
});
export const openFeedGeoJson = z.object({
  type: z.literal('FeatureCollection'),
  generated_at: isoDateTime,
  data_as_of: isoDateTime.nullable(),
  from: z.iso.date(),
  to: z.iso.date(),
  attribution: z.array(z.string()),
  licence: z.string(),
  privacy: z.string(),
  features: z.array(openFeedFeature),
});
export type OpenFeedGeoJson = z.infer<typeof openFeedGeoJson>;

/**
 * PUT outbreakApi.settings: set the district, turn SMS alerts on or off, or the call that says a rust
 * warning (`voice_warnings`, docs/decisions/0123): any of them.
 */
export const outbreakSettingsBody = z
  .object({
    district: districtCode.optional(),
    sms_alerts: z.boolean().optional(),
    voice_warnings: z.boolean().optional(),
  })
  .refine((b) => b.district !== undefined || b.sms_alerts !== undefined || b.voice_warnings !== undefined, {
    message: 'Choose your district or county',
    path: ['district'],
  });
export type OutbreakSettingsBody = z.input<typeof outbreakSettingsBody>;
export const outbreakSettingsReply = z.object({
  district: z.string().nullable(),
  sms_alerts: z.boolean(),
  /** Whether a rust advisory also comes as a phone call (while SMS alerts are on and no STOP). */
  voice_warnings: z.boolean(),
  /** True while a farmer has no district: the web app asks once. */
  needs_district: z.boolean(),
});
export type OutbreakSettingsReply = z.infer<typeof outbreakSettingsReply>;

/** When an alert was raised (in the notification's data): what the farmer's app links to. */
export const outbreakAlertData = z.object({
  district: z.string(),
  crop: outbreakCrop,
  /** The district with the cases (the farmer's own or a neighbour). */
  source_district: z.string(),
  raised_at: isoDateTime,
});
