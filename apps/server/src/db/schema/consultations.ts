import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { analyses } from './analysis.ts';
import { users } from './auth.ts';

/** How a consultation happens: a phone call, a visit to the farm (at `place`) or a video call (at `video_url`). */
const meetingModes = ['phone', 'farm_visit', 'video'] as const;

/**
 * An expert's weekly availability: on these East Africa Time weekdays, from `startMinute` to `endMinute`
 * (minutes after midnight EAT), slots of `slotMinutes`. Slots are generated from it for a rolling window
 * (docs/decisions/0019).
 */
export const availabilityRules = pgTable(
  'availability_rules',
  {
    id: serial('id').primaryKey(),
    expertId: integer('expert_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** ISO weekdays, 1 (Monday) to 7 (Sunday). */
    weekdays: smallint('weekdays').array().notNull(),
    startMinute: smallint('start_minute').notNull(),
    endMinute: smallint('end_minute').notNull(),
    slotMinutes: smallint('slot_minutes').notNull(),
    mode: text('mode', { enum: meetingModes }).notNull(),
    place: text('place'),
    videoUrl: text('video_url'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('rules_expert_idx').on(t.expertId),
    check('rules_minutes_in_day', sql`start_minute >= 0 and end_minute <= 1440 and end_minute > start_minute`),
  ],
);

export const availabilitySlots = pgTable(
  'availability_slots',
  {
    id: serial('id').primaryKey(),
    expertId: integer('expert_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    mode: text('mode', { enum: meetingModes }).notNull().default('phone'),
    place: text('place'),
    videoUrl: text('video_url'),
    /** The weekly availability that generated this slot; null for a one-off slot. */
    ruleId: integer('rule_id').references(() => availabilityRules.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('slots_expert_start_idx').on(t.expertId, t.startTime),
    index('slots_active_start_idx').on(t.startTime).where(sql`is_active`),
    // Generation is idempotent: a rule makes each start time once, however often it runs.
    uniqueIndex('slots_rule_start_unique').on(t.ruleId, t.startTime),
    check('slots_end_after_start', sql`end_time > start_time`),
  ],
);

export const bookings = pgTable(
  'bookings',
  {
    id: serial('id').primaryKey(),
    slotId: integer('slot_id')
      .notNull()
      .references(() => availabilitySlots.id, { onDelete: 'cascade' }),
    farmerId: integer('farmer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'cancelled'] })
      .notNull()
      .default('pending'),
    /** What the farmer wants to talk about. */
    topic: text('topic').notNull().default(''),
    /** One of the farmer's own analyses, attached when booking. */
    analysisId: integer('analysis_id').references(() => analyses.id, { onDelete: 'set null' }),
    selectedDate: timestamp('selected_date', { withTimezone: true }),
    reason: text('reason'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    cancelledBy: text('cancelled_by', { enum: ['farmer', 'expert'] }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The calendar event's SEQUENCE: raised on every change the attendees' calendars must take. */
    sequence: integer('sequence').notNull().default(0),
    reminded24hAt: timestamp('reminded_24h_at', { withTimezone: true }),
    reminded1hAt: timestamp('reminded_1h_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // At most one live booking per slot: the database settles a booking race.
    uniqueIndex('bookings_one_live_per_slot').on(t.slotId).where(sql`status in ('pending', 'approved')`),
    index('bookings_slot_idx').on(t.slotId, t.createdAt),
    index('bookings_farmer_idx').on(t.farmerId, t.createdAt),
    index('bookings_reminders_idx').on(t.selectedDate).where(sql`status = 'approved'`),
    check('bookings_approved_has_date', sql`status <> 'approved' or selected_date is not null`),
  ],
);
