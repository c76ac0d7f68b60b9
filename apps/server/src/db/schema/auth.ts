import { languages } from '@kutu/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { oneOf } from '../value-list.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Null for a farmer who signed up with a phone number only (docs/decisions/0024). */
    email: text('email'),
    username: text('username').notNull(),
    /** `admin` only from the command line (apps/server/src/cli/admin-create.ts, docs/decisions/0027). */
    role: text('role', { enum: ['farmer', 'expert', 'admin', 'officer'] }).notNull(),
    phone: text('phone').notNull(),
    passwordHash: text('password_hash'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    /** The language of the account's emails, SMS, notifications and error messages (contract `languages`). */
    language: text('language', { enum: languages }).notNull().default('en'),
    /** District or county code from the contract's list (docs/decisions/0031); null until the user chooses one. */
    district: text('district'),
    /**
     * A changed district counts for surveillance (a far field's walks, docs/decisions/0127) only
     * DISTRICT_SETTLE_DAYS after `district_changed_at`; until then `district_before` does. Null: never changed.
     */
    districtBefore: text('district_before'),
    districtChangedAt: timestamp('district_changed_at', { withTimezone: true }),
    /** Whether outbreak alerts also come by SMS (the in-app notification always comes). */
    smsAlerts: boolean('sms_alerts').notNull().default(true),
    /**
     * The farmer chose a call that says the rust advisory too (the outbox's `voice` channel, STOP and
     * `sms_alerts` still apply: docs/decisions/0123). Off unless chosen: a call costs Kutu and the farmer's time.
     */
    voiceWarnings: boolean('voice_warnings').notNull().default(false),
    /**
     * The owner sent STOP by SMS: no SMS from Kutu until START, except the codes they ask for at that
     * moment (docs/decisions/0051; checked by `smsAllowed()` in modules/delivery/sms-allowed.ts).
     */
    smsStoppedAt: timestamp('sms_stopped_at', { withTimezone: true }),
    /** A try-out farmer of `npm run outbreak:demo`: what `--remove` deletes, whatever anyone's username. */
    demo: boolean('demo').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check('users_role_check', sql`${t.role} in ('farmer', 'expert', 'admin', 'officer')`),
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    check('users_language_check', oneOf(t.language, languages)),
    /** E.164 as stored: a phone number can sign in, so it names one account. */
    uniqueIndex('users_phone_unique').on(t.phone),
    /** Who to alert in a district: its farmers and experts (docs/decisions/0032). */
    index('users_district_role_idx').on(t.district, t.role),
  ],
);

export const farmerProfiles = pgTable('farmer_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  farmLocation: text('farm_location').notNull(),
  farmSize: numeric('farm_size', { mode: 'number' }).notNull(),
  cropTypes: text('crop_types').array().notNull().default(sql`'{}'::text[]`),
  /**
   * The name the farmer gave on a basic phone or at a plant clinic, as typed ("Nakato Grace"); their
   * username is made from it ("Nakato-Grace-4521"). Null for a web sign-up, whose username is typed.
   */
  name: text('name'),
});

/** An expert's own facts; their application and its vetting are in `role_applications` (schema/vetting.ts). */
export const expertProfiles = pgTable('expert_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  areasOfExpertise: text('areas_of_expertise').notNull(),
  certifications: text('certifications').notNull().default(''),
  bio: text('bio').notNull().default(''),
  experienceYears: integer('experience_years').notNull().default(0),
  institution: text('institution').notNull().default(''),
  languagesSpoken: text('languages_spoken').notNull().default(''),
  socialLinks: text('social_links').notNull().default(''),
});

/** The "Complete Profile" details; an account is complete once this row exists. */
export const userProfiles = pgTable('user_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  customerTypeId: integer('customer_type_id'),
  idType: text('id_type', { enum: ['NATIONAL_ID', 'PASSPORT'] }).notNull(),
  idNumber: text('id_number').notNull(),
  organisationName: text('organisation_name').notNull(),
  firstName: text('first_name').notNull(),
  middleName: text('middle_name').notNull().default(''),
  lastName: text('last_name').notNull(),
  gender: text('gender', { enum: ['MALE', 'FEMALE'] }).notNull(),
  physicalAddress: text('physical_address').notNull(),
  nationality: text('nationality').notNull(),
  dob: date('dob').notNull(),
  occupation: text('occupation').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Opaque tokens sent to the user (sign-up token, password-reset link); only their SHA-256 is stored. */
export const actionTokens = pgTable('action_tokens', {
  id: serial('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  purpose: text('purpose', { enum: ['signup', 'password_reset'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** 4-digit one-time codes (argon2id hashed), per user and purpose; deleting the account's too (modules/auth/codes.service.ts). */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', {
      enum: ['EMAIL_VERIFICATION', 'PHONE_ACTIVATION', 'PASSWORD_RESET', 'ADD_EMAIL', 'ACCOUNT_DELETION'],
    }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    invalidated: boolean('invalidated').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('otp_codes_user_purpose').on(t.userId, t.purpose)],
);

/** Rotating refresh tokens; a reused token revokes its whole family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_family').on(t.familyId), index('refresh_tokens_user').on(t.userId)],
);

/**
 * Per-account counters in a fixed window (failed logins, reset requests), keyed by purpose and the
 * normalised email, so the rule treats unknown addresses exactly like known ones.
 */
export const authThrottle = pgTable('auth_throttle', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});

/**
 * The installation's own signing secrets, made at random on first start where JWT_ACCESS_SECRET /
 * JWT_REFRESH_SECRET are not set (docs/decisions/0097): one row per secret, shared by every process of
 * the installation and carried by every backup with the tokens they sign and key. Never logged.
 */
export const installationSecrets = pgTable('installation_secrets', {
  name: text('name', { enum: ['jwt_access', 'jwt_refresh'] }).primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});
