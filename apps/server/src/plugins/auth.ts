import type { FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@kutu/contract';
import { forbidden, unauthenticated } from '../lib/errors.ts';
import type { ApprovalGate } from '../lib/approval-gate.ts';
import type { LiveSessions } from '../lib/live-sessions.ts';
import type { Access } from '../lib/route-schema.ts';
import type { AccessTokens, SessionClaims } from '../lib/tokens.ts';

/** What a route without `config: guard(…)` or `config: publicRoute` is told to do (docs/CONTRIBUTING.md). */
export const ROUTE_ACCESS_RECIPE =
  "give it `config: guard('farmer')` (signed-in callers of these roles; `guard()`: any signed-in caller) or `config: publicRoute` (from lib/route-schema.ts), and drop `onRequest: app.requireRole(…)`/`app.authenticate` and `schema.security` (docs/CONTRIBUTING.md, 'A new route')";

declare module 'fastify' {
  interface FastifyRequest {
    auth: SessionClaims | null;
  }
  interface FastifyInstance {
    /**
     * Every `/api` route that does not say who may call it, or that still writes `schema.security` by
     * hand, each as one line saying what to do; `npm run lint:openapi` and the OpenAPI tests fail on any.
     */
    routeAccessProblems: () => string[];
    /** @deprecated Gone: a route declares `config: guard(…)` (lib/route-schema.ts). Throws at start-up. */
    requireRole: (...roles: Role[]) => never;
    /** @deprecated Gone: a route declares `config: guard()` (lib/route-schema.ts). Throws at start-up. */
    authenticate: never;
  }
}

/** The caller's identity; only call in a route that `guard(…)` guards. */
export function caller(req: FastifyRequest): SessionClaims {
  if (!req.auth) throw unauthenticated();
  return req.auth;
}

/** The caller of a route that `guard('farmer', 'expert')` guards, with the role narrowed to those two. */
export function farmerOrExpert(req: FastifyRequest): SessionClaims & { role: 'farmer' | 'expert' } {
  const claims = caller(req);
  if (claims.role === 'admin' || claims.role === 'officer') throw forbidden('errors.roles.farmersAndExperts');
  return { ...claims, role: claims.role };
}

const isApi = (url: string | undefined) => url?.startsWith('/api/') === true;

/**
 * Guarded by default: one `onRequest` hook for every `/api` route checks the caller the route's
 * `config.access` names, before the body is parsed, so an anonymous caller gets 401 and a caller of
 * another role 403 whatever they send. A route that names nothing needs a valid token all the same.
 */
export const authPlugin = fp<{
  tokens: AccessTokens;
  sessions: LiveSessions;
  /** Asked for every caller of a role that needs an administrator's approval (lib/approval-gate.ts). */
  approvals: ApprovalGate;
}>(async (app, { tokens, sessions, approvals }) => {
  app.decorateRequest('auth', null);

  // A signature alone is not enough: logout, a password change or reset and refresh-token reuse end
  // the session, and its access tokens die with it (docs/decisions/0008-auth-hardening.md, M2).
  async function authenticate(req: FastifyRequest) {
    const header = req.headers.authorization ?? '';
    const [scheme, token] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw unauthenticated();
    const claims = await tokens.verify(token);
    if (!(await sessions.isLive(claims))) throw unauthenticated('errors.session.ended');
    req.auth = claims;
  }

  app.addHook('onRequest', async (req) => {
    if (!isApi(req.routeOptions.url)) return;
    const access = req.routeOptions.config.access;
    if (access === 'public') return;
    await authenticate(req);
    const roles = access?.roles ?? [];
    if (!roles.length) return;
    const { role, userId } = req.auth!;
    if (!roles.includes(role)) throw forbidden(roleRefusal(roles));
    // Vetting is checked here, once for every route of every role that needs approval (experts,
    // extension officers: modules/vetting/approval-roles.ts), never route by route (a route for one's
    // own data says `guardBeforeVetting`).
    if (access?.beforeVetting) return;
    if (approvals.needs(role)) await approvals.assertApproved(userId, role);
  });

  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    if (isApi(route.url) && route.method !== 'HEAD') routes.push(route);
  });
  app.decorate('routeAccessProblems', () =>
    routes.flatMap((route) => {
      const name = `${([] as string[]).concat(route.method).join(',')} ${route.url}`;
      const access = route.config?.access as Access | undefined;
      if (access === undefined) return [`${name} says neither guard(…) nor publicRoute: ${ROUTE_ACCESS_RECIPE}`];
      if ((route.schema as { security?: unknown } | undefined)?.security !== undefined)
        return [`${name} writes schema.security by hand; guard(…)/publicRoute set it: drop it`];
      return [];
    }),
  );
  const gone = (name: string) => () => {
    throw new Error(`app.${name} is gone: routes are guarded by default; ${ROUTE_ACCESS_RECIPE}`);
  };
  app.decorate('requireRole', gone('requireRole'));
  app.decorate('authenticate', { getter: gone('authenticate') });
});

function roleRefusal(roles: readonly Role[]) {
  if (roles.includes('admin')) return 'errors.roles.admins';
  if (roles.includes('officer')) return 'errors.roles.officers';
  if (roles.includes('farmer'))
    return roles.includes('expert') ? 'errors.roles.farmersAndExperts' : 'errors.roles.farmers';
  return 'errors.roles.experts';
}
