import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/**
 * A farmer's field (docs/decisions/0078): the unit a farmer decides for. Every analysis, follow-up
 * reminder, scouting walk and plant clinic visit belongs to one. Retired, not deleted: its history stays.
 */
export const fields = pgTable(
  'fields',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    crop: text('crop', { enum: ['maize', 'beans', 'other'] }).notNull(),
    sizeAcres: real('size_acres'),
    /** A district code of the contract's list; null when the farmer has none. */
    district: text('district'),
    /** The planting date in the field's own calendar: Kutu works out the growth stage from it. */
    plantedOn: date('planted_on', { mode: 'string' }),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    /** The field's number on a basic phone ("1. Field A (maize)"): given once, never reused for the farmer. */
    number: integer('number').notNull(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // One live field of a name per farmer, whatever its case ("Maize field" and "maize field" are one).
    uniqueIndex('fields_user_name_idx').on(t.userId, sql`lower(${t.name})`).where(sql`retired_at is null`),
    uniqueIndex('fields_user_number_idx').on(t.userId, t.number),
    index('fields_user_created_idx').on(t.userId, t.createdAt),
    // An advisory's recipients: the live fields of a district and crop, their farmers read from the index alone.
    index('fields_live_district_crop_idx').on(t.district, t.crop, t.userId).where(sql`retired_at is null`),
    check('fields_crop_check', sql`${t.crop} in ('maize', 'beans', 'other')`),
  ],
);

export const walkChannels = ['web', 'offline', 'ussd', 'sms', 'clinic'] as const;
export const walkOutcomes = ['better', 'same', 'worse', 'too_few_plants'] as const;
/** Why a walk waits for an expert or officer before it counts (docs/decisions/0105). */
export const walkHolds = ['far_field', 'far_walk'] as const;

/** One stop of a walk as stored: the plants looked at, those with rust, and the leaf photographed there. */
export type StoredStop = { looked: number; rust: number; analysis_id?: number };

/**
 * A scouting walk (docs/decisions/0078, after FAO's FAMEWS): plants looked at and plants with rust at a few
 * stops of one field, and the advice as it was given (rule, version, steps, sources), so an old walk reads
 * as it was answered whatever the rules say since; with the comparison against the field's walk before it.
 */
export const scoutingWalks = pgTable(
  'scouting_walks',
  {
    id: serial('id').primaryKey(),
    fieldId: integer('field_id')
      .notNull()
      .references(() => fields.id, { onDelete: 'cascade' }),
    /** The field's owner (the farmer whose walk it is). */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who counted: the farmer, or the expert at a plant clinic visit (null once that expert's account is erased). */
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    channel: text('channel', { enum: walkChannels }).notNull(),
    /** The client's `Idempotency-Key` (a walk queued on the phone): a retry returns the first walk. */
    idempotencyKey: text('idempotency_key'),
    walkedAt: timestamp('walked_at', { withTimezone: true }).notNull(),
    stops: jsonb('stops').$type<StoredStop[]>().notNull(),
    plantsLooked: integer('plants_looked').notNull(),
    plantsRust: integer('plants_rust').notNull(),
    /** Weeks since planting at the walk; null without a planting date. */
    weeksSincePlanting: integer('weeks_since_planting'),
    /** The stage the advice used: said at the walk, else from the planting date; null when neither. */
    growthStage: text('growth_stage'),
    stageSaid: boolean('stage_said').notNull().default(false),
    /** The advice as given: its rule, the rules' version, the main action, the steps, the next walk, sources. */
    adviceRule: text('advice_rule').notNull(),
    rulesVersion: text('rules_version').notNull(),
    adviceAction: text('advice_action').notNull(),
    adviceSteps: jsonb('advice_steps').$type<string[]>().notNull(),
    walkAgainDays: integer('walk_again_days'),
    adviceSources: jsonb('advice_sources').$type<{ title: string; url: string }[]>().notNull(),
    /** The field's walk before this one (by walked_at) and what comparing the two found. */
    comparedWalkId: integer('compared_walk_id').references((): AnyPgColumn => scoutingWalks.id, {
      onDelete: 'set null',
    }),
    comparedWalkedAt: timestamp('compared_walked_at', { withTimezone: true }),
    comparedLooked: integer('compared_looked'),
    comparedRust: integer('compared_rust'),
    comparison: text('comparison', { enum: walkOutcomes }),
    /** A worse walk with a leaf photo went to the experts' queue (that photo); without one it waits for the officers' week. */
    sentToExpert: boolean('sent_to_expert').notNull().default(false),
    /**
     * Set when the walk counts in no figure (open feed, officers' week, the district's baseline) until an expert or
     * officer confirms it: its field is far from its farmer, or its share far from the district's (decision 0105).
     */
    heldFor: text('held_for', { enum: walkHolds }),
    confirmedBy: integer('confirmed_by').references(() => users.id, { onDelete: 'set null' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('scouting_walks_user_key_idx').on(t.userId, t.idempotencyKey),
    index('scouting_walks_field_walked_idx').on(t.fieldId, t.walkedAt),
    index('scouting_walks_worse_idx').on(t.walkedAt).where(sql`comparison = 'worse'`),
    check('scouting_walks_channel_check', sql`${t.channel} in ('web', 'offline', 'ussd', 'sms', 'clinic')`),
    check('scouting_walks_counts_check', sql`${t.plantsRust} between 0 and ${t.plantsLooked}`),
  ],
);
