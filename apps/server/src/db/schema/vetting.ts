import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { approvalRoles } from '@kutu/contract';
import { users } from './auth.ts';

/**
 * One application per person and role that needs an administrator's approval (docs/decisions/0027,
 * 0093): an expert's, an extension officer's (the contract's `approvalRoles`, modules/vetting/approval-roles.ts);
 * a role's own facts live in its profile table (an expert's `expert_profiles`, an officer's office and
 * districts in `officer_profiles`). A new applicant waits as `pending`; only `approved` may act in the role.
 */
export const roleApplications = pgTable(
  'role_applications',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** One of the contract's `approvalRoles`; plain text in the database (no check), so a new role needs no migration. */
    role: text('role', { enum: approvalRoles }).notNull(),
    status: text('status', { enum: ['pending', 'approved', 'refused'] })
      .notNull()
      .default('pending'),
    /** The administrator's reason for a refusal or a withdrawal, shown to the applicant. */
    reason: text('reason'),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: integer('decided_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    check('role_applications_status_check', sql`${t.status} in ('pending', 'approved', 'refused')`),
    /** The administrator's list: a role's pending ones, oldest first. */
    index('role_applications_list_idx').on(t.role, t.status, t.appliedAt),
  ],
);

/**
 * An extension officer's office and districts: the one extra of their application (written with it, in the
 * sign-up's transaction, through the vetting module), so vetting owns it. Only an approved officer sees a
 * district's week, and only of the districts listed here.
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
