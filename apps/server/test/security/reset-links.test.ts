import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, login, post } from '../support/auth-flow.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { changePassword, resetMails, resetToken } from '../support/security.ts';
import { errorOf } from '../support/errors.ts';
import { api } from '@kutu/contract';

/** L2: a reset link dies when the password changes, and when a newer link is sent. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function requestLink(email: string) {
  const sent = resetMails(t, email).length;
  expect((await post(t, api.auth.forgotPassword, { email })).statusCode).toBe(200);
  return resetToken(t, email, sent + 1);
}
const reset = (token: string) =>
  post(t, api.auth.resetPassword, { token, new_password: 'Fr3sh!Password', confirm_password: 'Fr3sh!Password' });

describe('L2: reset links', () => {
  it('stop working once the user changes the password', async () => {
    const a = await activeAccount(t);
    const link = await requestLink(a.email);
    const s = await login(t, a.email);
    const changed = await changePassword(t, s.access, a.password);
    expect(changed.statusCode, changed.body).toBe(200);
    const res = await reset(link);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Invalid Token, check your email');
    await login(t, a.email, 'Ch4nged!Pass');
  });

  it('only the newest link works', async () => {
    const a = await activeAccount(t);
    const older = await requestLink(a.email);
    const newer = await requestLink(a.email);
    expect(newer).not.toBe(older);
    expect(errorOf(await reset(older)).message).toBe('Invalid Token, check your email');
    expect((await reset(newer)).statusCode).toBe(200);
  });
});
