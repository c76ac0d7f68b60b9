import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { analyses } from './analysis.ts';

/** What an officer did about a farmer (a call or a visit) with a note: experts see it on the farmer's case. */
export const officerActions = pgTable(
  'officer_actions',
  {
    id: serial('id').primaryKey(),
    officerId: integer('officer_id').references(() => users.id, { onDelete: 'set null' }),
    farmerId: integer('farmer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The diagnosis it is about (the follow-up's first photo), when there is one. */
    analysisId: integer('analysis_id').references(() => analyses.id, { onDelete: 'set null' }),
    district: text('district').notNull(),
    kind: text('kind', { enum: ['called', 'visited'] }).notNull(),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('officer_actions_farmer_idx').on(t.farmerId, t.createdAt),
    check('officer_actions_kind_check', sql`${t.kind} in ('called', 'visited')`),
  ],
);
