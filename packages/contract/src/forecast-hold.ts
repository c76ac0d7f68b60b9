/**
 * A person between the forecast and a national send (docs/decisions/0128): the week's advisories by district
 * before they go out, and a hold on a district with its reason, for national officers and administrators.
 */
import { z } from 'zod';
import { rowId } from './common.ts';
import { forecastCrop, riskBasis } from './forecast.ts';

/** A hold on a district's advisories of this week: the district and why. */
export const forecastHoldBody = z.object({
  district: z.string().trim().min(1, { error: 'Choose a district' }).max(10),
  reason: z
    .string({ error: 'Say why the advisories are held' })
    .trim()
    .min(5, { error: 'Say why the advisories are held (5 characters or more)' })
    .max(500, { error: 'Keep the reason to 500 characters' }),
});
export type ForecastHoldBody = z.infer<typeof forecastHoldBody>;

/** A hold's id in the path, an int4 row id like every other. */
export const forecastHoldParams = z.object({ id: rowId() });

/** Who held or lifted, when. */
const holdEvent = z.object({ by: z.string().nullable(), at: z.string() });

export const forecastHold = z.object({
  id: z.number().int(),
  district: z.string(),
  name: z.string(),
  week_start: z.string(),
  reason: z.string(),
  held: holdEvent,
  lifted: holdEvent.nullable(),
});
export type ForecastHold = z.infer<typeof forecastHold>;

/**
 * The week's advisories by district and crop from the latest run: the first high day and what it rests on,
 * and whether it is sent, held, or due at the next send.
 */
export const pendingAdvisory = z.object({
  district: z.string(),
  name: z.string(),
  crop: forecastCrop,
  high_day: z.string(),
  basis: riskBasis,
  state: z.enum(['due', 'held', 'sent']),
  /** When it goes out unless held (null once sent or while held). */
  due_at: z.string().nullable(),
  told_at: z.string().nullable(),
});
export type PendingAdvisory = z.infer<typeof pendingAdvisory>;

export const pendingAdvisoriesReply = z.object({
  week_start: z.string(),
  run_at: z.string().nullable(),
  /** The daily hour (East Africa Time) advisories go out at. */
  send_hour_eat: z.number().int(),
  next_send_at: z.string(),
  advisories: z.array(pendingAdvisory),
  /** This week's holds, lifted or not, newest first. */
  holds: z.array(forecastHold),
});
export type PendingAdvisoriesReply = z.infer<typeof pendingAdvisoriesReply>;

const scoreReliability = z.object({
  level: z.enum(['low', 'moderate', 'high']),
  cases: z.number().int(),
  observed: z.number().int(),
  rate: z.number().nullable(),
});
export type ScoreReliability = z.infer<typeof scoreReliability>;

/**
 * How good the forecast has been (docs/decisions/0129): over the weeks where someone looked 7–21 days after,
 * "high" against rust seen, the Brier score of the levels against "rust near alone", and rust seen per level.
 * The weekly sweep scores once per ISO week and stores it (docs/decisions/0137): `week_start` and `scored_at`
 * say when, `rules_version` with which forecast rules.
 */
export const storedForecastScore = z.object({
  week_start: z.string(),
  scored_at: z.string(),
  rules_version: z.string(),
  from: z.string(),
  to: z.string(),
  weeks: z.number().int(),
  cases: z.number().int(),
  table: z.object({ a: z.number().int(), b: z.number().int(), c: z.number().int(), d: z.number().int() }),
  hit_rate: z.number().nullable(),
  false_alarm_ratio: z.number().nullable(),
  peirce: z.number().nullable(),
  brier: z.number().nullable(),
  brier_baseline: z.number().nullable(),
  brier_skill: z.number().nullable(),
  reliability: z.array(scoreReliability),
});
export type StoredForecastScore = z.infer<typeof storedForecastScore>;
/** The latest stored score; null: not scored yet (the weekly sweep has not run since Kutu started). */
export const forecastScoreReply = z.object({ score: storedForecastScore.nullable() });
export type ForecastScoreReply = z.infer<typeof forecastScoreReply>;
