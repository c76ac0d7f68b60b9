import { errorBody } from '@kutu/contract';

/** A route for a signed-in caller: the bearer access token (OpenAPI `security`). */
export const security = [{ bearer: [] }];

/**
 * A route's error replies in its OpenAPI schema: each status code given answers
 * `{ error: { code, message, fields? } }` (lib/errors.ts). A module lists the codes its routes use.
 */
export function errorReplies<const C extends number>(...codes: C[]): Record<C, typeof errorBody> {
  return Object.fromEntries(codes.map((code) => [code, errorBody])) as Record<C, typeof errorBody>;
}
