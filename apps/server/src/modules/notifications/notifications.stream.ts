import { createHmac, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { type Role, roles } from '@kutu/contract';
import type { Clock } from '../../adapters/clock.ts';
import { unauthenticated } from '../../lib/errors.ts';
import type { SessionClaims } from '../../lib/tokens.ts';

/** Seconds a stream token can open the event stream. */
export const STREAM_TOKEN_TTL_SECONDS = 60;

/**
 * Tokens for the notifications event stream. EventSource cannot send an Authorization header, so the
 * web app trades its access token for one of these and puts it in the stream's URL. They open only
 * the stream, expire after a minute and work once (per process), so a URL that ends up in a log is
 * of little use. The key is derived from the access secret, so an access token is never accepted here.
 */
export function createStreamTokens(accessSecret: string, clock: Clock) {
  const key = createHmac('sha256', accessSecret).update('kutu-notifications-stream').digest();
  const used = new Map<string, number>();

  function forget(nowSeconds: number) {
    for (const [jti, exp] of used) if (exp < nowSeconds) used.delete(jti);
  }

  return {
    async sign(claims: SessionClaims): Promise<string> {
      const iat = Math.floor(clock.now().getTime() / 1000);
      return new SignJWT({ role: claims.role, typ: 'notifications_stream', sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + STREAM_TOKEN_TTL_SECONDS)
        .sign(key);
    },
    /** The sign-in session the stream belongs to (it closes when that session ends). */
    async verify(token: string): Promise<SessionClaims> {
      const now = Math.floor(clock.now().getTime() / 1000);
      let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
      try {
        ({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: clock.now() }));
      } catch {
        throw unauthenticated('errors.session.streamTokenInvalid');
      }
      const { role, sid } = payload;
      // Every role the contract names, as the access token's check reads it (lib/tokens.ts): a list of
      // its own here once left extension officers out.
      const claimsOk = roles.includes(role as Role) && typeof sid === 'string';
      if (payload.typ !== 'notifications_stream' || !payload.jti || !payload.exp || !claimsOk) {
        throw unauthenticated('errors.session.streamTokenInvalid');
      }
      forget(now);
      if (used.has(payload.jti)) throw unauthenticated('errors.session.streamTokenUsed');
      used.set(payload.jti, payload.exp);
      return { userId: Number(payload.sub), role: role as Role, sessionId: sid };
    },
  };
}
