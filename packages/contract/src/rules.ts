import { passwordStrength as checkStrength, type Options } from 'check-password-strength';

// Rules without zod, so the web app's first screens can use them without loading the schemas.

/** Text, @, text, dot, text (applied after trimming and lower-casing). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX = 254;

/** The spec's strength levels (check-password-strength's thresholds). */
export const strengthLevels = ['Too weak', 'Weak', 'Medium', 'Strong'] as const;
export type StrengthLevel = (typeof strengthLevels)[number];
const strengthOptions: Options<StrengthLevel> = [
  { id: 0, value: 'Too weak', minDiversity: 0, minLength: 0 },
  { id: 1, value: 'Weak', minDiversity: 2, minLength: 6 },
  { id: 2, value: 'Medium', minDiversity: 4, minLength: 8 },
  { id: 3, value: 'Strong', minDiversity: 4, minLength: 10 },
];
export function passwordStrength(password: string): StrengthLevel {
  return checkStrength(password, strengthOptions).value;
}
/** Weak and Too weak are refused with 'Password is <strength>'. */
export function passwordProblem(password: string): string | null {
  const level = passwordStrength(password);
  return level === 'Too weak' || level === 'Weak' ? `Password is ${level}` : null;
}
