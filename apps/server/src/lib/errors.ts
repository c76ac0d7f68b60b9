import type { ErrorCode } from '@kutu/contract';

/** A failure the client should see: code, message, HTTP status and optional per-field messages. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: Record<string, string>;
  /** For 429 and 503: when to try again (the `Retry-After` header); a default is sent when unset. */
  retryAfterSeconds?: number;
  constructor(code: ErrorCode, message: string, status: number, fields?: Record<string, string>) {
    super(message);
    this.code = code;
    this.status = status;
    this.fields = fields;
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(fields ? 'VALIDATION_ERROR' : 'BAD_REQUEST', message, 400, fields);
export const unauthenticated = (message = 'Please sign in to continue') =>
  new AppError('UNAUTHENTICATED', message, 401);
export const forbidden = (message = 'You do not have permission to do this') => new AppError('FORBIDDEN', message, 403);
export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message, 404);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError('CONFLICT', message, 409, fields);
export const tooMany = (message = 'Too many attempts. Please wait a moment and try again.', retryAfterSeconds = 60) =>
  Object.assign(new AppError('RATE_LIMITED', message, 429), { retryAfterSeconds });
