import { createHash, createHmac, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { MAX_ROW_ID, type Role, roles } from '@kutu/contract';
import { AppError, unauthenticated } from './errors.ts';

export interface AccessClaims {
  userId: number;
  role: Role;
}

/** What an access token carries: the caller and the sign-in session (refresh family) it belongs to. */
export interface SessionClaims extends AccessClaims {
  sessionId: string;
}

/** `sub` is a user's row id: a positive int4, written as sign() writes it. */
const USER_ID = /^[1-9]\d{0,9}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Verified access tokens remembered per process (each costs a WebCrypto HMAC job to verify again). */
const MAX_VERIFIED = 10_000;

export function createAccessTokens(secret: string, ttlSeconds: number, currentTime: () => Date = () => new Date()) {
  const key = new TextEncoder().encode(secret);
  // sha256 of the token → its claims and expiry (ms). Only tokens that passed every check get here; an
  // entry is dropped once the token expires, so the expiry answer stays jose's. Oldest-used go first.
  const verified = new Map<string, { claims: SessionClaims; expiresAt: number }>();

  async function verifyWithJose(token: string): Promise<{ claims: SessionClaims; expiresAt: number }> {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: currentTime() });
      const { role, sid } = payload;
      if (payload.typ !== 'access' || typeof role !== 'string' || !roles.includes(role as Role))
        throw unauthenticated();
      if (typeof sid !== 'string' || !UUID.test(sid)) throw unauthenticated();
      // Signed by us, but a token made with a leaked key or by a bug must not reach the database as NaN.
      const userId = Number(payload.sub);
      if (!USER_ID.test(payload.sub ?? '') || userId > MAX_ROW_ID) throw unauthenticated('errors.session.invalid');
      return { claims: { userId, role: role as Role, sessionId: sid }, expiresAt: Number(payload.exp) * 1000 };
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new AppError('TOKEN_EXPIRED', 'errors.session.expired', 401);
      if (err instanceof AppError) throw err;
      throw unauthenticated('errors.session.invalid');
    }
  }

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
      const id = createHash('sha256').update(token).digest('base64');
      const hit = verified.get(id);
      verified.delete(id);
      if (hit && hit.expiresAt > currentTime().getTime()) {
        verified.set(id, hit);
        return { ...hit.claims };
      }
      const fresh = await verifyWithJose(token);
      if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value as string);
      verified.set(id, fresh);
      return { ...fresh.claims };
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
