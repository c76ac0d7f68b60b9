import type { Role } from '@kutu/contract';
import { errorBody } from '@kutu/contract';

/**
 * Who may call a route (docs/decisions/0063-routes-guarded-by-default.md): `'public'`, or a signed-in
 * caller of one of `roles` (none listed: any role). The auth plugin's `/api` hook enforces it and the
 * OpenAPI document's `security` is derived from it; an `/api` route that declares neither is refused
 * to a caller without a valid token, and `npm run check` fails until it says which it is.
 */
export type Access = 'public' | { roles: readonly Role[]; beforeVetting?: true };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

/**
 * A route for a signed-in caller of one of these roles (none: any signed-in caller), as its `config`:
 * `{ config: guard('expert'), schema: { … } }`. An expert must also have been approved (docs/decisions/0027).
 */
export function guard(...roles: Role[]): { access: Access } {
  return { access: { roles } };
}

/**
 * `guard(…)` for what an expert or officer may do before, or after a refusal of, their vetting: their
 * own data (take a copy, delete the account). Everything else waits for the approval.
 */
export function guardBeforeVetting(...roles: Role[]): { access: Access } {
  return { access: { roles, beforeVetting: true } };
}

/** A route anyone may call, without a token, as its `config` (or spread into it: `{ ...limited, ...publicRoute }`). */
export const publicRoute: { access: Access } = { access: 'public' };

/**
 * A route's error replies in its OpenAPI schema: each status code given answers
 * `{ error: { code, message, fields? } }` (lib/errors.ts). A module lists the codes its routes use.
 */
export function errorReplies<const C extends number>(...codes: C[]): Record<C, typeof errorBody> {
  return Object.fromEntries(codes.map((code) => [code, errorBody])) as Record<C, typeof errorBody>;
}
