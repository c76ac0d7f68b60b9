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

export type LocalePart = 'first' | 'account';

export function localePart(strings: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(strings).filter(([section]) => FIRST_SECTIONS.includes(section) === (part === 'first')),
  );
}
