import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionTokens } from '../../src/db/schema/index.ts';
import { activeAccount, post } from '../support/auth-flow.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { resetToken } from '../support/security.ts';
import { api } from '@kutu/contract';

/**
 * L8: forgot-password answers before any work that depends on whether the account exists (lookup,
 * reset token, email), so a known and an unknown email take the same time to answer.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const resetTokens = async () =>
  (
    await t.deps.database.db.select({ n: count() }).from(actionTokens).where(eq(actionTokens.purpose, 'password_reset'))
  )[0].n;

describe('L8: forgot-password timing', () => {
  it('replies before the account is looked up: no reset token exists yet when the reply arrives', async () => {
    const a = await activeAccount(t);
    const before = await resetTokens();
    const res = await post(t, api.auth.forgotPassword, { email: a.email });
    // Asked in the same turn as the reply arrived: the per-account work has not started yet.
    const atReply = await resetTokens();
    expect(res.statusCode).toBe(200);
    expect(atReply).toBe(before);
    // Then it happens: the token is stored and the email is sent.
    await resetToken(t, a.email);
    expect(await resetTokens()).toBe(before + 1);
  });

  it('gives a known and an unknown email the same reply', async () => {
    const a = await activeAccount(t);
    const known = await post(t, api.auth.forgotPassword, { email: a.email });
    const unknown = await post(t, api.auth.forgotPassword, { email: 'nobody-at-all@example.com' });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.headers['content-length']).toBe(unknown.headers['content-length']);
  });
});
