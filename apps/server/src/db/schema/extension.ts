import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { analyses } from './analysis.ts';

/**
 * An extension officer's office and districts: the one extra of their application, whose vetting is in
 * `role_applications` (schema/vetting.ts). Only an approved officer sees a district's week, and only of
 * the districts listed here.
 */
export const officerProfiles = pgTable(
  'officer_profiles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The office they work for, as they wrote it (District Agricultural Office, County …). */
    office: text('office').notNull(),
    /** District or county codes from the contract's list. */
    districts: text('districts').array().notNull(),
    /**
     * A national officer (docs/decisions/0122): an administrator granted them the national bulletin (CSV, PDF
     * and the Monday email). Their districts' weeks stay theirs alone. Who changed it last, and when, is kept.
     */
    national: boolean('national').notNull().default(false),
    nationalChangedAt: timestamp('national_changed_at', { withTimezone: true }),
    nationalChangedBy: integer('national_changed_by').references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [index('officer_profiles_districts_idx').using('gin', t.districts)],
);

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
