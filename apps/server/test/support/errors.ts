/** The body of every error reply: `{ error: { code, message, fields? } }` (see src/plugins/errors.ts). */
export interface ErrorBody {
  code: string;
  message: string;
  fields?: Record<string, string>;
  signup?: { token: string; step: 'activate_phone' | 'verify_email' };
}

/**
 * The `error` of a reply. A reply without an error body (a file, an empty 204, a success) gives an empty
 * code and message, so an assertion on either still fails rather than throwing on `undefined`.
 */
export function errorOf(res: { body: string }): ErrorBody {
  try {
    const error = (JSON.parse(res.body) as { error?: ErrorBody }).error;
    if (error && typeof error === 'object') return error;
  } catch {
    // not JSON: a file or an empty body
  }
  return { code: '', message: '' };
}
