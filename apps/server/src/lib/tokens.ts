import { createHmac, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '@kutu/contract';
import { AppError, unauthenticated } from './errors.ts';

export interface AccessClaims {
  userId: number;
  role: Role;
}

export function createAccessTokens(secret: string, ttlSeconds: number) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims: AccessClaims, now = new Date()): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ role: claims.role, typ: 'access' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(key);
    },
    async verify(token: string): Promise<AccessClaims> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const role = payload.role;
        if (payload.typ !== 'access' || (role !== 'farmer' && role !== 'expert')) throw unauthenticated();
        return { userId: Number(payload.sub), role };
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
