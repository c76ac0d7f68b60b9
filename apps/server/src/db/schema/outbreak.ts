import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { analyses } from './analysis.ts';

/*
 * Outbreak watch (docs/decisions/0031): rust cases per district, crop and ISO week, kept
 * incrementally. Three levels: each analysis's case state, each farmer's week (one farmer's photos in
 * one week count once), and the counts per district, crop and week that the map reads.
 */

const caseStates = ['confirmed', 'reported', 'none'] as const;

/** One analysis that is, or was, a rust case: where and when it counts, and its state now. */
export const outbreakCases = pgTable(
  'outbreak_cases',
  {
    analysisId: integer('analysis_id')
      .primaryKey()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The farmer's district when the case was first counted (a later move does not move old cases). */
    district: text('district').notNull(),
    crop: text('crop').notNull(),
    /** Monday (UTC) of the analysis's ISO week. */
    weekStart: date('week_start').notNull(),
    state: text('state', { enum: caseStates }).notNull(),
    /** Reported (model only) and no expert verdict yet. */
    unreviewed: boolean('unreviewed').notNull(),
    demo: boolean('demo').notNull().default(false),
  },
  (t) => [
    index('outbreak_cases_farmer_week_idx').on(t.userId, t.crop, t.weekStart),
    check('outbreak_cases_state_check', sql`${t.state} in ('confirmed', 'reported', 'none')`),
  ],
);

/** A farmer's week for one crop: confirmed if any photo is, else reported if any is. Counted once. */
export const outbreakFarmerWeeks = pgTable(
  'outbreak_farmer_weeks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    crop: text('crop').notNull(),
    weekStart: date('week_start').notNull(),
    district: text('district').notNull(),
    state: text('state', { enum: caseStates }).notNull(),
    unreviewed: boolean('unreviewed').notNull(),
    demo: boolean('demo').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.userId, t.crop, t.weekStart] })],
);

/** Farmer-weeks per district, crop and week (try-out data apart): what the map and feeds read. */
export const outbreakCounts = pgTable(
  'outbreak_counts',
  {
    district: text('district').notNull(),
    crop: text('crop').notNull(),
    weekStart: date('week_start').notNull(),
    demo: boolean('demo').notNull(),
    confirmed: integer('confirmed').notNull().default(0),
    reported: integer('reported').notNull().default(0),
    /** Reported farmer-weeks with a photo no expert has reviewed yet. */
    unreviewed: integer('unreviewed').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.crop, t.weekStart, t.district, t.demo] }),
    index('outbreak_counts_district_idx').on(t.district, t.crop, t.weekStart),
  ],
);

/**
 * An outbreak alert for a district and crop (docs/decisions/0032). At most one open alert per district
 * and crop (partial unique index): concurrent confirmations race on it and only one inserts.
 */
export const outbreakAlerts = pgTable(
  'outbreak_alerts',
  {
    id: serial('id').primaryKey(),
    district: text('district').notNull(),
    crop: text('crop').notNull(),
    /** The district whose confirmed cases reached the threshold (this one or a neighbour). */
    sourceDistrict: text('source_district').notNull(),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull(),
    /** Set when the rule no longer holds: a later outbreak may alert again. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** When farmers and experts were told (null while the job has not run). */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** The fan-out's progress: recipients up to this user id have their messages written. */
    toldThrough: integer('told_through').notNull().default(0),
  },
  (t) => [uniqueIndex('outbreak_alerts_open_idx').on(t.district, t.crop).where(sql`ended_at is null`)],
);
