import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, login, post } from '../support/auth-flow.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { changePassword, resetToken } from '../support/security.ts';
import { bearer } from '../support/users.ts';
import { errorOf } from '../support/errors.ts';
import { api } from '@kutu/contract';

/** M2: an access token dies with its session, not only when it expires. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (access: string) => t.app.inject({ method: 'GET', url: api.auth.me, headers: bearer(access) });
const refresh = (token: string) => post(t, api.auth.refresh, { refresh: token });

async function expectEnded(access: string) {
  const res = await me(access);
  expect(res.statusCode).toBe(401);
  expect(errorOf(res).message).toBe('Your session has ended. Please sign in again.');
}

describe('M2: access tokens end with their session', () => {
  it('after logout (only that session)', async () => {
    const a = await activeAccount(t);
    const s = await login(t, a.email);
    const other = await login(t, a.email);
    expect((await me(s.access)).statusCode).toBe(200);
    expect((await post(t, api.auth.logout, { refresh: s.refresh })).statusCode).toBe(200);
    await expectEnded(s.access);
    expect((await me(other.access)).statusCode).toBe(200);
  });

  it('after a password change (every session but the new one)', async () => {
    const a = await activeAccount(t);
    const s = await login(t, a.email);
    const other = await login(t, a.email);
    const res = await changePassword(t, s.access, a.password);
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(s.access);
    await expectEnded(other.access);
    expect((await me(res.json().access)).statusCode).toBe(200);
  });

  it('after a password reset', async () => {
    const a = await activeAccount(t);
    const s = await login(t, a.email);
    await post(t, api.auth.forgotPassword, { email: a.email });
    const res = await post(t, api.auth.resetPassword, {
      token: await resetToken(t, a.email),
      new_password: 'Fr3sh!Password',
      confirm_password: 'Fr3sh!Password',
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(s.access);
  });

  it('after a replayed refresh token revoked the family, while a normal rotation keeps it alive', async () => {
    const a = await activeAccount(t);
    const first = await login(t, a.email);
    const rotated = await refresh(first.refresh);
    expect(rotated.statusCode).toBe(200);
    const second = rotated.json() as { access: string; refresh: string };
    // A request already under way with the previous access token still works after a rotation.
    expect((await me(first.access)).statusCode).toBe(200);
    expect((await me(second.access)).statusCode).toBe(200);

    expect((await refresh(first.refresh)).statusCode).toBe(401);
    await expectEnded(second.access);
    await expectEnded(first.access);
  });
});
