import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@kutu/contract';
import { forbidden, unauthenticated } from '../lib/errors.ts';
import type { ExpertGate } from '../lib/expert-gate.ts';
import type { LiveSessions } from '../lib/live-sessions.ts';
import type { AccessTokens, SessionClaims } from '../lib/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: SessionClaims | null;
  }
  interface FastifyInstance {
    /** preHandler: requires a valid access token. */
    authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * preHandler: requires a valid access token of one of these roles; an expert must also have been
     * approved by an administrator (docs/decisions/0027), else a 403 coded EXPERT_PENDING or EXPERT_REFUSED.
     */
    requireRole: (...roles: Role[]) => (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** The caller's identity; only call after `authenticate` or `requireRole` ran. */
export function caller(req: FastifyRequest): SessionClaims {
  if (!req.auth) throw unauthenticated();
  return req.auth;
}

/** The caller of a route that `requireRole('farmer', 'expert')` guards, with the role narrowed to those two. */
export function farmerOrExpert(req: FastifyRequest): SessionClaims & { role: 'farmer' | 'expert' } {
  const claims = caller(req);
  if (claims.role === 'admin' || claims.role === 'officer') throw forbidden('errors.roles.farmersAndExperts');
  return { ...claims, role: claims.role };
}

export const authPlugin = fp<{
  tokens: AccessTokens;
  sessions: LiveSessions;
  experts: ExpertGate;
  officers: ExpertGate;
}>(async (app, { tokens, sessions, experts, officers }) => {
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

  app.decorate('authenticate', authenticate);
  app.decorate('requireRole', (...roles: Role[]) => async (req: FastifyRequest) => {
    await authenticate(req);
    const { role, userId } = req.auth!;
    if (!roles.includes(role)) throw forbidden(roleRefusal(roles));
    // Vetting is checked here, once for every route an expert may use, never route by route.
    if (role === 'expert') await experts.assertApproved(userId);
    // Extension officers are vetted the same way, by the same one check.
    if (role === 'officer') await officers.assertApproved(userId);
  });
});

function roleRefusal(roles: Role[]) {
  if (roles.includes('admin')) return 'errors.roles.admins';
  if (roles.includes('officer')) return 'errors.roles.officers';
  if (roles.includes('farmer'))
    return roles.includes('expert') ? 'errors.roles.farmersAndExperts' : 'errors.roles.farmers';
  return 'errors.roles.experts';
}
