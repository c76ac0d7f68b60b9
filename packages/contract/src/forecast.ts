/**
 * The week's rust forecast per district, crop and day (docs/decisions/0100): the replies' schemas and API
 * paths. The rules themselves are rust-weather.ts's (no zod, shared with the phone).
 */
import { z } from 'zod';
import { districtFeature } from './geojson.ts';
import { forecastCrops, riskLevels } from './rust-weather.ts';

export * from './rust-weather.ts';

export { forecastApi } from './forecast-paths.ts';

/** Which way a point lies from its district's centre, as the reasons say it ("12 km north-east of the centre"). */
export const compassPoints = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

export const forecastCrop = z.enum(forecastCrops, { error: 'crop must be maize or beans' });
export const riskLevel = z.enum(riskLevels);

export const forecastQuery = z.object({ crop: forecastCrop.default('maize') });
export type ForecastQuery = z.infer<typeof forecastQuery>;

/**
 * What a day's level rests on, as facts the screens put in words in the reader's language. Every case counts
 * toward the level, but a place is named only where the published surfaces show its rust (SMALL_COUNT_MIN
 * farmers or more, docs/decisions/0105); rust below that, here or next door, reads "rust reported nearby".
 */
export const riskBasis = z.object({
  wet_hours: z.number().int().nullable(),
  longest_run: z.number().int().nullable(),
  infection_hours: z.number().int(),
  band: z.tuple([z.number(), z.number()]),
  /** Rust confirmed in the district in the last 14 days, as the map shows it (whether, never how many). */
  confirmed_here: z.boolean(),
  /** Rust seen on farmers' walks in the district in the last 14 days, as the map shows it. */
  walked_rust_here: z.boolean(),
  /** Neighbours whose rust of the last 14 days the map shows (names). */
  neighbours: z.array(z.string()),
  /** Of those, the ones the day's wind blows from (names). */
  upwind: z.array(z.string()),
  /** Rust here or next door counted in the level but below the published minimum, so not named. */
  unnamed_near: z.boolean().optional(),
  /**
   * The median share of plants with rust on the district's fields walked in 14 days (each field's latest
   * walk), as the open feed publishes it: null below SMALL_COUNT_MIN farmers.
   */
  walked_median: z.number().min(0).max(1).nullable().optional(),
  /**
   * The point of the district whose weather drove the day's level (docs/decisions/0134): where it is, its
   * elevation as the weather service has it (m, null when it gave none), and how far and which way it lies
   * from the centre (km, compass point; 0 and null at the centre). Null when no point's weather was known.
   */
  point: z
    .object({
      lat: z.number(),
      lng: z.number(),
      elevation: z.number().nullable(),
      km: z.number(),
      direction: z.enum(compassPoints).nullable(),
    })
    .nullable()
    .optional(),
  /** The district's points judged, and how many of them had no weather for the day (a low day needs none). */
  points: z.number().int().optional(),
  points_unknown: z.number().int().optional(),
});
export type RiskBasis = z.infer<typeof riskBasis>;

export const riskDay = z.object({ day: z.string(), level: riskLevel, basis: riskBasis });
export type RiskDay = z.infer<typeof riskDay>;

/** The state of the weather behind a run: fetched (with its time), or unknown (none could be fetched). */
export const weatherState = z.object({
  state: z.enum(['known', 'unknown']),
  fetched_at: z.string().nullable(),
  /** Hours since it was fetched, null when unknown. */
  age_hours: z.number().nullable(),
});

export const forecastWeekReply = z.object({
  crop: forecastCrop,
  run_at: z.string().nullable(),
  rules_version: z.string(),
  weather: weatherState,
  districts: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      worst: riskLevel,
      days: z.array(z.object({ day: z.string(), level: riskLevel })),
    }),
  ),
});
export type ForecastWeekReply = z.infer<typeof forecastWeekReply>;

export const districtForecastReply = z.object({
  code: z.string(),
  name: z.string(),
  crop: forecastCrop,
  run_at: z.string().nullable(),
  rules_version: z.string(),
  weather: weatherState,
  worst: riskLevel,
  days: z.array(riskDay),
});
export type DistrictForecastReply = z.infer<typeof districtForecastReply>;

export const fieldForecastReply = z.object({
  fields: z.array(
    z.object({
      field_id: z.number().int(),
      name: z.string(),
      crop: forecastCrop,
      district: z.string(),
      worst: riskLevel,
      /** The first high day (walk the field by then), or null when none. */
      walk_by: z.string().nullable(),
      weather: weatherState,
    }),
  ),
});
export type FieldForecastReply = z.infer<typeof fieldForecastReply>;

/**
 * The open risk GeoJSON: one Feature per district (Uganda) or county (Kenya) and crop of the latest run,
 * its geometry the shipped boundary and its properties the days' levels and the week's worst. Levels only,
 * never counts or reasons (the small-count rule, docs/decisions/0105).
 */
export const openRiskFeature = districtFeature(forecastCrop, {
  worst: riskLevel,
  days: z.array(z.object({ day: z.iso.date(), level: riskLevel })),
});
/** The open risk GeoJSON's query: one crop, or both when left out (each crop repeats every boundary). */
export const openRiskQuery = z.object({ crop: forecastCrop.optional() });
export const openRiskGeoJson = z.object({
  type: z.literal('FeatureCollection'),
  generated_at: z.string(),
  run_at: z.string().nullable(),
  rules_version: z.string(),
  weather: weatherState,
  attribution: z.array(z.string()),
  licence: z.string(),
  features: z.array(openRiskFeature),
});
export type OpenRiskGeoJson = z.infer<typeof openRiskGeoJson>;
