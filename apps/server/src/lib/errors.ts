import type { ErrorCode, Language } from '@kutu/contract';
import { type Message, type MessageKey, message, render } from '../i18n/i18n.ts';

/** A catalog key, or a key with its values; see apps/server/src/i18n. */
export type ErrorText = MessageKey | Message;
const asMessage = (text: ErrorText): Message => (typeof text === 'string' ? message(text) : text);

/**
 * A failure the client should see: code, message, HTTP status and optional per-field messages. The
 * texts stay keys until the reply, which writes them in the reader's language (plugins/errors.ts);
 * `message` is the English text, for logs and for code that compares errors.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly text: Message;
  readonly fieldTexts?: Record<string, Message>;
  /** For 429 and 503: when to try again (the `Retry-After` header); a default is sent when unset. */
  retryAfterSeconds?: number;
  /** A sign-in to an unfinished sign-up: the token to type the new code with (contract `errorBody`). */
  signup?: { token: string; step: 'activate_phone' | 'verify_email' };
  constructor(code: ErrorCode, text: ErrorText, status: number, fields?: Record<string, ErrorText>) {
    const main = asMessage(text);
    super(render('en', main));
    this.code = code;
    this.status = status;
    this.text = main;
    this.fieldTexts = fields && Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, asMessage(v)]));
  }

  /** The per-field messages in English. */
  get fields(): Record<string, string> | undefined {
    return this.localized('en').fields;
  }

  /** Whether this error says `key` (whatever its values). */
  says(key: MessageKey): boolean {
    return 'key' in this.text && this.text.key === key;
  }

  localized(language: Language): { message: string; fields?: Record<string, string> } {
    const fields = this.fieldTexts;
    return {
      message: render(language, this.text),
      ...(fields && { fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, render(language, v)])) }),
    };
  }
}

export const badRequest = (text: ErrorText, fields?: Record<string, ErrorText>) =>
  new AppError(fields ? 'VALIDATION_ERROR' : 'BAD_REQUEST', text, 400, fields);
export const unauthenticated = (text: ErrorText = 'errors.unauthenticated') =>
  new AppError('UNAUTHENTICATED', text, 401);
export const forbidden = (text: ErrorText = 'errors.forbidden') => new AppError('FORBIDDEN', text, 403);
export const notFound = (text: ErrorText = 'errors.notFound') => new AppError('NOT_FOUND', text, 404);
export const conflict = (text: ErrorText, fields?: Record<string, ErrorText>) =>
  new AppError('CONFLICT', text, 409, fields);
export const tooMany = (text: ErrorText = 'errors.tooManyAttempts', retryAfterSeconds = 60) =>
  Object.assign(new AppError('RATE_LIMITED', text, 429), { retryAfterSeconds });
