import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@kutu/contract';
import { forbidden, unauthenticated } from '../lib/errors.ts';
import type { LiveSessions } from '../lib/live-sessions.ts';
import type { AccessTokens, SessionClaims } from '../lib/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: SessionClaims | null;
  }
  interface FastifyInstance {
    /** preHandler: requires a valid access token. */
    authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler: requires a valid access token of one of these roles. */
    requireRole: (...roles: Role[]) => (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** The caller's identity; only call after `authenticate` or `requireRole` ran. */
export function caller(req: FastifyRequest): SessionClaims {
  if (!req.auth) throw unauthenticated();
  return req.auth;
}

export const authPlugin = fp<{ tokens: AccessTokens; sessions: LiveSessions }>(async (app, { tokens, sessions }) => {
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
    if (!roles.includes(req.auth!.role)) {
      throw forbidden(
        roles.includes('farmer')
          ? roles.includes('expert')
            ? 'errors.roles.farmersAndExperts'
            : 'errors.roles.farmers'
          : 'errors.roles.experts',
      );
    }
  });
});
