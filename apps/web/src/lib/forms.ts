import { EMAIL_MAX, EMAIL_PATTERN } from '@kutu/contract/rules';
import { ApiError } from './api.ts';
import { translateErrors } from './validation.ts';

/** The email pattern the server applies (text, @, text, dot, text). */
export function isEmail(value: string): boolean {
  const email = value.trim().toLowerCase();
  return email.length <= EMAIL_MAX && EMAIL_PATTERN.test(email);
}

/**
 * What the sign-in field holds: an E.164 phone number (starting with +; spaces, dashes and brackets
 * dropped), an email, or neither (null). A number without + is refused: 07… is Ugandan or Kenyan.
 */
export function signInIdentifier(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.startsWith('+')) {
    const phone = `+${trimmed.slice(1).replace(/[\s().-]/g, '')}`;
    return /^\+[1-9]\d{6,14}$/.test(phone) ? phone : null;
  }
  return isEmail(trimmed) ? trimmed : null;
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
