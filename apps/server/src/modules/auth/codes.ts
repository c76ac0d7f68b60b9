import { randomInt } from 'node:crypto';
import { type Message, message } from '../../i18n/i18n.ts';

export const CODE_TTL_MS = 15 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/**
 * Wrong tries per account and purpose in a day, whatever the number of codes sent: a new code does not
 * bring new tries. With 4-digit codes, a guesser's chance is at most 10 in 10,000 a day.
 */
export const WRONG_TRIES_PER_DAY = 10;
export const TRIES_WINDOW_MS = 24 * 60 * 60 * 1000;
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

/** A code's recent history for the day's rule: how many tries it took, whether one was right, when it was sent. */
export interface TriedCode {
  attempts: number;
  consumedAt: Date | null;
  createdAt: Date;
}

/** Wrong tries of the day's codes (a right try, which used its code, is not wrong). */
export function wrongTriesToday(codes: TriedCode[]): number {
  return codes.reduce((sum, c) => sum + c.attempts - (c.consumedAt ? 1 : 0), 0);
}

/** Null while another try is allowed today; else the message saying in how many hours tries come back. */
export function dayProblem(codes: TriedCode[], now: Date): Message | null {
  if (wrongTriesToday(codes) < WRONG_TRIES_PER_DAY) return null;
  const oldest = Math.min(...codes.filter((c) => c.attempts > 0).map((c) => c.createdAt.getTime()));
  const hours = Math.max(1, Math.ceil((oldest + TRIES_WINDOW_MS - now.getTime()) / 3_600_000));
  return message('errors.auth.tooManyTriesToday', { count: hours });
}

/** The message after a wrong try: the tries left of this code and of the day, whichever is fewer. */
export function wrongTryMessage(attempts: number, codes: TriedCode[], now: Date): Message {
  if (CODE_MAX_ATTEMPTS - attempts > 0 && wrongTriesToday(codes) >= WRONG_TRIES_PER_DAY) return dayProblem(codes, now)!;
  const left = Math.min(CODE_MAX_ATTEMPTS - attempts, WRONG_TRIES_PER_DAY - wrongTriesToday(codes));
  return left <= 0 ? message('errors.auth.tooManyWrongCodes') : message('errors.auth.wrongCode', { count: left });
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
