/**
 * The top-level sections of a locale file that the screens before sign-in use: the auth and static
 * pages, and the entry's error, notice and language strings. Translators keep one file per language;
 * the build splits each in two (vite.config.ts, `?part=first` or `?part=account`): the first part loads
 * at start, the rest with the account shell (lib/account-strings.ts), so the sign-in page does not
 * download the account screens' strings (decision 0016). locale-parts.test.ts checks those screens' keys.
 */
export const FIRST_SECTIONS: readonly string[] = [
  'app',
  'shell',
  'auth',
  'validation',
  'language',
  'notice',
  'contact',
  'menu',
];

/**
 * Sections only staff screens read (the expert's and administrator's tools: training, plant clinic visits,
 * basic-phone tools, failed messages, backups, erased accounts): a third part, loaded with those screens (lib/staff-strings.ts), so a
 * farmer's screens do not download them.
 */
export const STAFF_SECTIONS: readonly string[] = [
  'training',
  'clinic',
  'phone',
  'delivery',
  'backups',
  'erasures',
  'forecastDesk',
];

/** The extension officer's week, its largest section: a part of its own, loaded with that screen only (lib/officer-strings.ts). */
export const OFFICER_SECTIONS: readonly string[] = ['extension'];

/**
 * A farmer's fields and scouting walks (the field list, a field, the walk and its answer): loaded with
 * those screens (lib/fields-strings.ts), so the other account screens do not download them.
 */
export const FIELDS_SECTIONS: readonly string[] = ['fields'];

/**
 * Sections that only one feature's screens read, each a part loaded with those screens
 * (lib/<part>-strings.ts), so the other account screens, a farmer's first ones among them, do not
 * download them (decision 0121): the board's, the consultations', the outbreak map's (the review
 * queue's district filter names its countries too).
 */
export const FEATURE_SECTIONS = ['community', 'consultations', 'outbreak'] as const;

export type LocalePart = 'first' | 'account' | 'staff' | 'officer' | 'fields' | (typeof FEATURE_SECTIONS)[number];
export const LOCALE_PARTS: readonly LocalePart[] = [
  'first',
  'account',
  'staff',
  'officer',
  'fields',
  ...FEATURE_SECTIONS,
];

const partOf = (section: string): LocalePart =>
  FIRST_SECTIONS.includes(section)
    ? 'first'
    : STAFF_SECTIONS.includes(section)
      ? 'staff'
      : OFFICER_SECTIONS.includes(section)
        ? 'officer'
        : FIELDS_SECTIONS.includes(section)
          ? 'fields'
          : (FEATURE_SECTIONS as readonly string[]).includes(section)
            ? (section as LocalePart)
            : 'account';

export function localePart(strings: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  return Object.fromEntries(Object.entries(strings).filter(([section]) => partOf(section) === part));
}
