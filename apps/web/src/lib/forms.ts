import { EMAIL_MAX, EMAIL_PATTERN } from '@kutu/contract/rules';
import { ApiError } from './api.ts';
import { translateErrors } from './validation.ts';

/** The email pattern the server applies (text, @, text, dot, text). */
export function isEmail(value: string): boolean {
  const email = value.trim().toLowerCase();
  return email.length <= EMAIL_MAX && EMAIL_PATTERN.test(email);
}

/** Whether sign-in text is meant as a phone number (digits, spaces, +, brackets, dashes), not an email. */
export function looksLikePhone(text: string): boolean {
  return /^\+?[\d\s().-]+$/.test(text.trim()) && text.replace(/\D/g, '').length >= 3;
}

/** The server's per-field messages, if the failure carried any, in the language on screen. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  return err instanceof ApiError ? translateErrors(err.fields) : {};
}

/** Only a path inside this app may be a return address (never another site). */
export function safeReturnTo(path: string | null): string | null {
  if (!path?.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  if (path.startsWith('/auth')) return null;
  return path;
}

const SIGN_UP_IDENTIFIER = 'kutu.signUpIdentifier';
/** The email (or phone) a sign-up used, for this tab: sign-in after activation starts with it. */
export function rememberSignUpIdentifier(identifier: string) {
  try {
    sessionStorage.setItem(SIGN_UP_IDENTIFIER, identifier);
  } catch {
    // Storage refused: sign-in then starts empty.
  }
}
export function signUpIdentifier(): string | null {
  try {
    return sessionStorage.getItem(SIGN_UP_IDENTIFIER);
  } catch {
    return null;
  }
}
