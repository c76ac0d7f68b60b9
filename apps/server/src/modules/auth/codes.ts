import { randomInt } from 'node:crypto';
import { type Message, message } from '../../i18n/i18n.ts';

export const CODE_TTL_MS = 15 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/** Resending: at most one code per minute and five per hour, per account and purpose. */
export const RESEND_GAP_MS = 60 * 1000;
export const RESEND_WINDOW_MS = 60 * 60 * 1000;
export const RESEND_MAX_PER_WINDOW = 5;

/** A 4-digit one-time code from the crypto RNG; leading zeros are allowed ("0042"). */
export function newCode(): string {
  return String(randomInt(0, 10_000)).padStart(4, '0');
}

export interface StoredCode {
  attempts: number;
  expiresAt: Date;
  consumedAt: Date | null;
  invalidated: boolean;
}

/**
 * Why the newest code of a purpose can no longer be tried, as the message the user sees; null when it
 * can. (Only the newest counts: a new code invalidates older ones, so it is invalidated only by wrong tries.)
 */
export function codeProblem(code: StoredCode | undefined, now: Date): Message | null {
  if (!code || code.consumedAt) return message('errors.auth.noActiveCodeRequest');
  if (code.invalidated || code.attempts >= CODE_MAX_ATTEMPTS) return message('errors.auth.tooManyWrongCodes');
  if (code.expiresAt.getTime() <= now.getTime()) return message('errors.auth.codeExpired');
  return null;
}

/** The message after a wrong code, given the attempts used so far (this one included). */
export function wrongCodeMessage(attempts: number): Message {
  const left = CODE_MAX_ATTEMPTS - attempts;
  if (left <= 0) return message('errors.auth.tooManyWrongCodes');
  return message('errors.auth.wrongCode', { count: left });
}

/**
 * Whether another code may be sent now, given when the recent ones were sent (any order). Returns the
 * message telling the user when to retry, or null.
 */
export function resendProblem(sentAt: Date[], now: Date): Message | null {
  const t = now.getTime();
  const recent = sentAt.map((d) => d.getTime()).filter((s) => s > t - RESEND_WINDOW_MS);
  if (recent.length === 0) return null;
  const latest = Math.max(...recent);
  if (t - latest < RESEND_GAP_MS) {
    const seconds = Math.ceil((latest + RESEND_GAP_MS - t) / 1000);
    return message('errors.auth.waitBeforeResend', { seconds });
  }
  if (recent.length >= RESEND_MAX_PER_WINDOW) {
    const oldest = Math.min(...recent);
    const minutes = Math.ceil((oldest + RESEND_WINDOW_MS - t) / 60_000);
    return message('errors.auth.tooManyCodes', { count: minutes });
  }
  return null;
}
