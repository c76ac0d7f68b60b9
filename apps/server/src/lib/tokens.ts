import { createHmac, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '@kutu/contract';
import { AppError, unauthenticated } from './errors.ts';

export interface AccessClaims {
  userId: number;
  role: Role;
}

/** What an access token carries: the caller and the sign-in session (refresh family) it belongs to. */
export interface SessionClaims extends AccessClaims {
  sessionId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createAccessTokens(secret: string, ttlSeconds: number) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims: SessionClaims, now = new Date()): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ role: claims.role, typ: 'access', sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(key);
    },
    async verify(token: string): Promise<SessionClaims> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const { role, sid } = payload;
        if (payload.typ !== 'access' || (role !== 'farmer' && role !== 'expert')) throw unauthenticated();
        if (typeof sid !== 'string' || !UUID.test(sid)) throw unauthenticated();
        return { userId: Number(payload.sub), role, sessionId: sid };
      } catch (err) {
        if (err instanceof errors.JWTExpired)
          throw new AppError('TOKEN_EXPIRED', 'Your session has expired. Please sign in again.', 401);
        if (err instanceof AppError) throw err;
        throw unauthenticated('Your session is not valid. Please sign in again.');
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;

/** A random URL-safe token for links and refresh tokens. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Keyed hash for storing opaque tokens: a database leak does not reveal usable tokens. */
export function hashToken(token: string, secret: string): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}
