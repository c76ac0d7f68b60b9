import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@kutu/contract';
import { forbidden, unauthenticated } from '../lib/errors.ts';
import type { AccessClaims, AccessTokens } from '../lib/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AccessClaims | null;
  }
  interface FastifyInstance {
    /** preHandler: requires a valid access token. */
    authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler: requires a valid access token of one of these roles. */
    requireRole: (...roles: Role[]) => (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** The caller's identity; only call after `authenticate` or `requireRole` ran. */
export function caller(req: FastifyRequest): AccessClaims {
  if (!req.auth) throw unauthenticated();
  return req.auth;
}

export const authPlugin = fp<{ tokens: AccessTokens }>(async (app, { tokens }) => {
  app.decorateRequest('auth', null);

  async function authenticate(req: FastifyRequest) {
    const header = req.headers.authorization ?? '';
    const [scheme, token] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw unauthenticated();
    req.auth = await tokens.verify(token);
  }

  app.decorate('authenticate', authenticate);
  app.decorate('requireRole', (...roles: Role[]) => async (req: FastifyRequest) => {
    await authenticate(req);
    if (!roles.includes(req.auth!.role)) {
      throw forbidden(`Only ${roles.map((r) => `${r}s`).join(' and ')} can do this`);
    }
  });
});
