/**
 * Every table that holds a person's data, by table name: which of its columns name a person (a user id
 * or a phone number) and what an erasure does to each, and where "Download my data" puts its rows or why
 * it does not. `personal-data.test.ts` reads the database's catalogue and fails for a table with a
 * column that references `users` (or is called `user_id` or `phone`) and is not here; the erasure
 * rewrites every table here on the embedded database (nothing of the person stays in its files), and the
 * export test opens every file and key named here. To add a table: docs/privacy.md, "A table that
 * holds a person's data".
 */

/** What an erasure does to a column that names the person. */
export type Fate =
  /** The rows go with the account (a foreign key that cascades, or `erase()` deletes them). */
  | 'erased'
  /** The rows stay for other people, pointing to the Former member account or to nobody. */
  | 'anonymised'
  /** The column names another person (who moderated, who reviewed): set to nobody when that person goes. */
  | 'other-person'
  /** Stays as it is, for the reason given. */
  | { kept: string };

/** The archive's files (export.service.ts writes them; its README names each). */
export const EXPORT_FILES = [
  'profile.json',
  'consents.json',
  'analyses.json',
  'fields.json',
  'posts.json',
  'bookings.json',
  'clinic-visits.json',
  'messages.json',
  'other.json',
  'voice.json',
] as const;
export type ExportFile = (typeof EXPORT_FILES)[number];

export interface PersonalTable {
  /** Columns that name a person, with what an erasure does to each. */
  columns: Record<string, Fate>;
  /** The rows reach the person through another table of this list (an analysis's photos). */
  through?: string;
  /** Where the archive holds the person's rows (a file, and the key inside it), or why it does not. */
  exported: { file: ExportFile; key?: string } | { not: string };
}

const secret = 'a hash of a secret (a code, a link, a session): useless to the person and not to be copied out';

export const PERSONAL_DATA = {
  users: { columns: { id: 'erased', phone: 'erased' }, exported: { file: 'profile.json', key: 'account' } },
  farmer_profiles: { columns: { user_id: 'erased' }, exported: { file: 'profile.json', key: 'farmer' } },
  expert_profiles: { columns: { user_id: 'erased' }, exported: { file: 'profile.json', key: 'expert' } },
  officer_profiles: {
    columns: { user_id: 'erased', national_changed_by: 'other-person' },
    exported: { file: 'profile.json', key: 'officer' },
  },
  role_applications: {
    columns: { user_id: 'erased', decided_by: 'other-person' },
    exported: { file: 'profile.json', key: 'applications' },
  },
  user_profiles: { columns: { user_id: 'erased' }, exported: { file: 'profile.json', key: 'details' } },
  consents: { columns: { user_id: 'erased' }, exported: { file: 'consents.json' } },
  action_tokens: { columns: { user_id: 'erased' }, exported: { not: secret } },
  otp_codes: { columns: { user_id: 'erased' }, exported: { not: secret } },
  refresh_tokens: { columns: { user_id: 'erased' }, exported: { not: secret } },
  auth_throttle: {
    columns: {},
    exported: { not: 'a counter of failed sign-ins keyed by a SHA-256 of the email or number' },
  },
  read_versions: { columns: { user_id: 'erased' }, exported: { not: 'a cache counter, no data of the person' } },
  ussd_actions: {
    columns: { phone: 'erased' },
    exported: { not: "a day's guard against a USSD request sent twice: the menu's answers, kept a day" },
  },
  analyses: { columns: { user_id: 'erased' }, exported: { file: 'analyses.json', key: 'analyses' } },
  analysis_photos: { columns: {}, through: 'analyses', exported: { file: 'analyses.json', key: 'photos' } },
  expert_reviews: {
    columns: { reviewer_id: 'anonymised', claimed_by: 'anonymised' },
    through: 'analyses',
    exported: { file: 'analyses.json', key: 'verdicts' },
  },
  training_samples: {
    columns: { uploader_id: 'anonymised' },
    through: 'analyses',
    exported: { file: 'other.json', key: 'training_samples_from_my_photos' },
  },
  fields: { columns: { user_id: 'erased' }, exported: { file: 'fields.json', key: 'fields' } },
  scouting_walks: {
    columns: { user_id: 'erased', recorded_by: 'other-person', confirmed_by: 'other-person' },
    exported: { file: 'fields.json', key: 'walks' },
  },
  follow_ups: { columns: { user_id: 'erased' }, exported: { file: 'other.json', key: 'follow_ups' } },
  outbreak_cases: {
    columns: { user_id: 'erased' },
    exported: {
      not: "the outbreak map's working copy of the person's analyses (district, week, crop): in analyses.json",
    },
  },
  outbreak_farmer_weeks: {
    columns: { user_id: 'erased' },
    exported: { not: "the outbreak map's count of the person's weeks, made from their analyses" },
  },
  posts: {
    columns: { author_id: 'anonymised', moderated_by: 'other-person' },
    exported: { file: 'posts.json', key: 'posts' },
  },
  responses: {
    columns: { author_id: 'anonymised', moderated_by: 'other-person' },
    exported: { file: 'posts.json', key: 'comments' },
  },
  moderation_audit: {
    columns: { actor_id: 'anonymised' },
    exported: { file: 'posts.json', key: 'moderation_done' },
  },
  availability_rules: {
    columns: { expert_id: 'erased' },
    exported: { file: 'bookings.json', key: 'availability' },
  },
  availability_slots: { columns: { expert_id: 'anonymised' }, exported: { file: 'bookings.json', key: 'slots' } },
  bookings: { columns: { farmer_id: 'erased' }, exported: { file: 'bookings.json', key: 'bookings' } },
  clinic_visits: {
    columns: { farmer_id: 'erased', expert_id: 'anonymised' },
    exported: { file: 'clinic-visits.json' },
  },
  callback_requests: {
    columns: { user_id: 'erased', done_by: 'other-person' },
    exported: { file: 'other.json', key: 'callback_requests' },
  },
  officer_actions: {
    columns: { farmer_id: 'erased', officer_id: 'anonymised' },
    exported: { file: 'other.json', key: 'officer_notes_about_me' },
  },
  notifications: { columns: { user_id: 'erased' }, exported: { file: 'messages.json', key: 'notifications' } },
  deliveries: { columns: { user_id: 'erased' }, exported: { file: 'messages.json', key: 'outbox' } },
  voice_clips: {
    columns: { recorded_by: 'erased', decided_by: 'other-person' },
    exported: { file: 'voice.json' },
  },
  advice: {
    columns: { updated_by: 'other-person' },
    exported: { not: "Kutu's advice texts; only who last edited them names a person" },
  },
  education_resources: {
    columns: { updated_by: 'other-person' },
    exported: { not: "Kutu's reading list; only who last edited it names a person" },
  },
  model_versions: {
    columns: { trained_by: 'other-person' },
    exported: { not: "Kutu's model versions; only the administrator who trained one is named" },
  },
  training_jobs: {
    columns: { started_by: 'other-person' },
    exported: { not: "Kutu's training runs; only the administrator who started one is named" },
  },
  forecast_holds: {
    columns: { held_by: 'other-person', lifted_by: 'other-person' },
    exported: {
      not: "the log of districts' advisories held; only the officer or administrator who held or lifted one is named",
    },
  },
  model_activations: {
    columns: { activated_by: 'other-person' },
    exported: { not: "Kutu's record of which model was put in service; only the administrator who did it is named" },
  },
} satisfies Record<string, PersonalTable>;

export type PersonalTableName = keyof typeof PERSONAL_DATA;

/**
 * The columns of `table` that name a person, but for `owner` (the column the person's rows are found by):
 * who reviewed, moderated, closed or vetted. An archive never holds them: they are other people's ids.
 */
export function othersColumns(table: PersonalTableName, owner?: string): string[] {
  return Object.keys(PERSONAL_DATA[table].columns).filter((name) => name !== owner && name !== 'phone');
}
