import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { createAccessTokens, hashToken, randomToken } from '../../lib/tokens.ts';
import { hashSecret, verifyAgainstNothing, verifySecret } from './passwords.ts';

const secret = 'x'.repeat(40);

describe('access tokens', () => {
  const tokens = createAccessTokens(secret, 900);
  const sessionId = '0b6f1c2e-6d1f-4c1e-9a51-0c0ffee00007';

  it('carry the user, role and session', async () => {
    const token = await tokens.sign({ userId: 7, role: 'expert', sessionId });
    expect(await tokens.verify(token)).toEqual({ userId: 7, role: 'expert', sessionId });
  });

  it('expire after their lifetime', async () => {
    const token = await tokens.sign({ userId: 7, role: 'farmer', sessionId }, new Date(Date.now() - 901_000));
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED', status: 401 });
  });

  it('refuse another key, tampering and garbage', async () => {
    const other = await createAccessTokens('y'.repeat(40), 900).sign({ userId: 7, role: 'farmer', sessionId });
    await expect(tokens.verify(other)).rejects.toBeInstanceOf(AppError);
    const token = await tokens.sign({ userId: 7, role: 'farmer', sessionId });
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), role: 'expert' }),
    );
    await expect(tokens.verify(`${h}.${forged.toString('base64url')}.${s}`)).rejects.toMatchObject({ status: 401 });
    await expect(tokens.verify('not-a-token')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  // A validly signed token whose sub is no user id once gave 500 on every route.
  it('refuse a validly signed token whose subject is not a positive whole number', async () => {
    const key = new TextEncoder().encode(secret);
    for (const sub of ['abc', '0', '-3', '1.5', '7e3', ' 7', '2147483648', '99999999999999999999', '']) {
      const token = await new SignJWT({ role: 'farmer', typ: 'access', sid: sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(key);
      await expect(tokens.verify(token), sub).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    }
  });

  it('are remembered once verified, but still expire, and a remembered one vouches for no other', async () => {
    let at = new Date('2026-11-23T08:00:00Z');
    const timed = createAccessTokens(secret, 900, () => at);
    const token = await timed.sign({ userId: 7, role: 'farmer', sessionId }, at);
    expect(await timed.verify(token)).toEqual({ userId: 7, role: 'farmer', sessionId });
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: '8' }));
    await expect(timed.verify(`${h}.${forged.toString('base64url')}.${s}`)).rejects.toMatchObject({ status: 401 });
    at = new Date(at.getTime() + 899_000);
    expect(await timed.verify(token)).toEqual({ userId: 7, role: 'farmer', sessionId });
    at = new Date(at.getTime() + 1_000);
    await expect(timed.verify(token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED', status: 401 });
  });
});

describe('opaque tokens and secrets', () => {
  it('are random and stored only as keyed hashes', () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(a);
    expect(hashToken(a, secret)).toBe(hashToken(a, secret));
    expect(hashToken(a, secret)).not.toBe(hashToken(a, `${secret}!`));
    expect(hashToken(a, secret)).not.toContain(a);
  });

  it('hash passwords and codes with argon2id', async () => {
    const hash = await hashSecret('0042');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifySecret(hash, '0042')).toBe(true);
    expect(await verifySecret(hash, '0043')).toBe(false);
    expect(await verifySecret('garbage', '0042')).toBe(false);
    expect(await verifyAgainstNothing('anything')).toBe(false);
  });
});
