import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('slots_expert_start_idx').on(t.expertId, t.startTime),
    index('slots_active_start_idx').on(t.startTime).where(sql`is_active`),
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
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    selectedDate: timestamp('selected_date', { withTimezone: true }),
    reason: text('reason'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // At most one live booking per slot: the database settles a booking race.
    uniqueIndex('bookings_one_live_per_slot').on(t.slotId).where(sql`status <> 'rejected'`),
    index('bookings_slot_idx').on(t.slotId, t.createdAt),
    index('bookings_farmer_idx').on(t.farmerId, t.createdAt),
    check('bookings_approved_has_date', sql`status <> 'approved' or selected_date is not null`),
  ],
);
