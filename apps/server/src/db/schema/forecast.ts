import { sql } from 'drizzle-orm';
import {
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { RiskBasis, ScoreReliability, WeatherHour } from '@kutu/contract';
import { users } from './auth.ts';

/*
 * The week's rust forecast (docs/decisions/0100): the weather as last fetched per district point, and each
 * run's risk per district, crop and day, kept so that a forecast can be compared later with what was confirmed.
 */

/**
 * The latest hourly forecast fetched for each of a district's points (replaced at each fetch): `point` indexes
 * `districtPoints` (0: the centre), `elevation` is the service's for the place (m; null when it gave none),
 * docs/decisions/0134.
 */
export const weatherForecasts = pgTable(
  'weather_forecasts',
  {
    district: text('district').notNull(),
    point: smallint('point').notNull().default(0),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
    hours: jsonb('hours').$type<WeatherHour[]>().notNull(),
    elevation: real('elevation'),
  },
  (t) => [primaryKey({ columns: [t.district, t.point] })],
);

/** One forecast run: when, with which rules, and the weather's age (null: no weather could be had). */
export const forecastRuns = pgTable(
  'forecast_runs',
  {
    id: serial('id').primaryKey(),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull(),
    rulesVersion: text('rules_version').notNull(),
    /** The oldest fetch behind the run; null when no district had weather ("weather unknown"). */
    weatherFetchedAt: timestamp('weather_fetched_at', { withTimezone: true }),
  },
  (t) => [index('forecast_runs_ran_idx').on(t.ranAt)],
);

/** A run's risk for one district, crop and local day, with what it rests on. */
export const forecastRisks = pgTable(
  'forecast_risks',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => forecastRuns.id, { onDelete: 'cascade' }),
    district: text('district').notNull(),
    crop: text('crop').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    level: text('level', { enum: ['low', 'moderate', 'high', 'unknown'] }).notNull(),
    basis: jsonb('basis').$type<RiskBasis>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.crop, t.district, t.day] }),
    index('forecast_risks_district_idx').on(t.district, t.crop, t.day),
    check('forecast_risks_level_check', sql`${t.level} in ('low', 'moderate', 'high', 'unknown')`),
  ],
);

/** A district and crop whose week turned high, and whose advisories were written (once per ISO week). */
export const forecastAdvisories = pgTable(
  'forecast_advisories',
  {
    district: text('district').notNull(),
    crop: text('crop').notNull(),
    /** Monday (UTC) of the ISO week the advisory belongs to. */
    weekStart: date('week_start', { mode: 'string' }).notNull(),
    runId: integer('run_id').references(() => forecastRuns.id, { onDelete: 'set null' }),
    /** The first high day the advisory named. */
    highDay: date('high_day', { mode: 'string' }).notNull(),
    toldAt: timestamp('told_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.district, t.crop, t.weekStart] })],
);

/**
 * A national officer's or administrator's hold on a district's advisories of an ISO week (docs/decisions/0128):
 * who held them, when and why, and who lifted the hold and when. Rows are never deleted: they are the log.
 */
export const forecastHolds = pgTable(
  'forecast_holds',
  {
    id: serial('id').primaryKey(),
    district: text('district').notNull(),
    /** Monday (UTC) of the ISO week held. */
    weekStart: date('week_start', { mode: 'string' }).notNull(),
    reason: text('reason').notNull(),
    heldBy: integer('held_by').references(() => users.id, { onDelete: 'set null' }),
    heldAt: timestamp('held_at', { withTimezone: true }).notNull(),
    liftedBy: integer('lifted_by').references(() => users.id, { onDelete: 'set null' }),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
  },
  (t) => [index('forecast_holds_week_idx').on(t.weekStart, t.district)],
);

/**
 * The forecast's score (docs/decisions/0129) as the weekly sweep stored it (docs/decisions/0137): one row per
 * ISO week it was scored in, never updated or deleted, so the desk, the score API and the bulletin read it
 * instead of walking two years of runs, and a later reader sees how the score moved week by week.
 */
export const forecastScores = pgTable('forecast_scores', {
  /** Monday (UTC) of the ISO week the sweep scored in: one score per week. */
  weekStart: date('week_start', { mode: 'string' }).primaryKey(),
  scoredAt: timestamp('scored_at', { withTimezone: true }).notNull(),
  /** The forecast rules of that week (RUST_WEATHER_VERSION). */
  rulesVersion: text('rules_version').notNull(),
  /** The forecast weeks behind it: from `from` to before `to` (the weeks whose outcome window had closed). */
  from: date('from_week', { mode: 'string' }).notNull(),
  to: date('to_week', { mode: 'string' }).notNull(),
  weeks: integer('weeks').notNull(),
  cases: integer('cases').notNull(),
  hits: integer('hits').notNull(),
  falseAlarms: integer('false_alarms').notNull(),
  misses: integer('misses').notNull(),
  quiet: integer('quiet').notNull(),
  hitRate: doublePrecision('hit_rate'),
  falseAlarmRatio: doublePrecision('false_alarm_ratio'),
  peirce: doublePrecision('peirce'),
  brier: doublePrecision('brier'),
  brierBaseline: doublePrecision('brier_baseline'),
  brierSkill: doublePrecision('brier_skill'),
  reliability: jsonb('reliability').$type<ScoreReliability[]>().notNull(),
});
