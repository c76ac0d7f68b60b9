import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, farmerBody, login, post } from '../support/auth-flow.ts';
import { createTestApp, type TestContext } from '../support/app.ts';
import { changePassword } from '../support/security.ts';
import { bearer } from '../support/users.ts';
import { api } from '@kutu/contract';

/** L11: replies that carry tokens, codes or account details are never cached. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('L11: Cache-Control: no-store on auth replies', () => {
  it('on sign-up, login, refresh, me, password change and errors', async () => {
    const register = await post(t, api.auth.registerFarmer, farmerBody());
    expect(register.statusCode).toBe(201);
    const a = await activeAccount(t);
    const loginRes = await post(t, api.auth.login, { email: a.email, password: a.password });
    const { access, refresh } = loginRes.json();
    const replies = {
      register,
      login: loginRes,
      refresh: await post(t, api.auth.refresh, { refresh }),
      me: await t.app.inject({ method: 'GET', url: api.auth.me, headers: bearer(access) }),
      wrongLogin: await post(t, api.auth.login, { email: a.email, password: 'Wr0ng!Password' }),
      change: await changePassword(t, (await login(t, a.email)).access, a.password),
    };
    for (const [name, res] of Object.entries(replies)) {
      expect(res.headers['cache-control'], name).toBe('no-store');
    }
    expect(replies.refresh.statusCode).toBe(200);
    expect(replies.change.statusCode).toBe(200);
  });
});
