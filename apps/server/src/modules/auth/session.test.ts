import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { activeAccount, login, PASSWORD, post, signUp } from '../../../test/support/auth-flow.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { api } from '@kutu/contract';
import { bearer } from '../../../test/support/users.ts';

const MIN = 60_000;
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (access: string) => t.app.inject({ method: 'GET', url: api.auth.me, headers: bearer(access) });
const refresh = (token: string) => post(t, api.auth.refresh, { refresh: token });

describe('login', () => {
  it('gives the same answer for an unknown email and a wrong password', async () => {
    const a = await activeAccount(t);
    const unknown = await post(t, api.auth.login, { email: 'nobody@example.com', password: PASSWORD });
    const wrong = await post(t, api.auth.login, { email: a.email, password: 'Wr0ng!Password' });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(errorOf(wrong).message).toBe('Wrong email or password');
  });

  it('tells an account that is not yet verified only when the password is right', async () => {
    const s = await signUp(t);
    const wrong = await post(t, api.auth.login, { email: s.body.email, password: 'Wr0ng!Password' });
    expect(errorOf(wrong).message).toBe('Wrong email or password');
    const right = await post(t, api.auth.login, { email: s.body.email, password: PASSWORD });
    expect(right.statusCode).toBe(403);
    expect(errorOf(right).message).toMatch(/^Your email is not verified yet/);
  });

  it('slows an account down after 5 failures, known or not, without locking it (more in test/security)', async () => {
    const a = await activeAccount(t);
    for (const email of [a.email, 'ghost@example.com']) {
      for (let i = 0; i < 5; i++) {
        expect((await post(t, api.auth.login, { email, password: 'Wr0ng!Password' })).statusCode).toBe(401);
      }
      const res = await post(t, api.auth.login, { email, password: PASSWORD });
      expect(res.statusCode).toBe(429);
      expect(errorOf(res).message).toBe('Too many attempts. Please wait 1 second and try again.');
    }
    t.clock.advance(1000);
    await login(t, a.email);
  });
});

describe('sessions', () => {
  it('rotates refresh tokens; replaying a used one ends the whole family', async () => {
    const a = await activeAccount(t);
    const first = await login(t, a.email);
    const other = await login(t, a.email);

    const r1 = await refresh(first.refresh);
    expect(r1.statusCode).toBe(200);
    const second = r1.json();
    expect(second.refresh).not.toBe(first.refresh);
    expect((await me(second.access)).statusCode).toBe(200);

    const replay = await refresh(first.refresh);
    expect(replay.statusCode).toBe(401);
    expect(errorOf(replay).message).toBe('This session has ended. Please sign in again.');
    expect((await refresh(second.refresh)).statusCode).toBe(401);
    // Another device's session is a different family and lives on.
    expect((await refresh(other.refresh)).statusCode).toBe(200);
  });

  it('expires refresh tokens and refuses unknown ones', async () => {
    const a = await activeAccount(t);
    const s = await login(t, a.email);
    expect(errorOf(await refresh('made-up-token')).message).toBe('Your session is not valid. Please sign in again.');
    t.clock.advance(31 * 24 * 60 * MIN);
    const res = await refresh(s.refresh);
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('TOKEN_EXPIRED');
  });

  it('logs out by revoking the refresh token', async () => {
    const a = await activeAccount(t);
    const s = await login(t, a.email);
    const res = await post(t, api.auth.logout, { refresh: s.refresh });
    expect(res.json()).toEqual({ message: 'You are signed out.' });
    expect((await refresh(s.refresh)).statusCode).toBe(401);
    expect((await post(t, api.auth.logout, { refresh: 'unknown' })).statusCode).toBe(200);
  });

  it('requires a valid access token for the signed-in routes', async () => {
    for (const [method, url] of [
      ['GET', api.auth.me],
      ['PUT', api.auth.completeProfile],
      ['PUT', api.auth.changePassword],
    ] as const) {
      expect((await t.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
      const res = await t.app.inject({ method, url, payload: {}, headers: bearer('garbage') });
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).message).toBe('Your session is not valid. Please sign in again.');
    }
  });
});

describe('forgot and reset password', () => {
  const forgot = (email: string) => post(t, api.auth.forgotPassword, { email });
  const reset = (token: string, password = 'Fr3sh!Password') =>
    post(t, api.auth.resetPassword, { token, new_password: password, confirm_password: password });
  /** The newest reset email to this address (sent in the background, so it may arrive a bit later). */
  async function resetMail(email: string) {
    const find = () => t.smtp.inbox.filter((m) => m.to === email && m.subject === 'Reset your Kutu password').at(-1);
    await expect.poll(find).toBeDefined();
    return find()!;
  }
  async function resetToken(email: string) {
    const mail = await resetMail(email);
    const link = mail.text.match(/(http\S+\/auth\/confirm-password-reset\?token=(\S+))/);
    expect(link?.[1].startsWith(`${t.deps.config.publicUrl}/auth/confirm-password-reset?token=`)).toBe(true);
    return decodeURIComponent(link![2]);
  }

  it('answers the same whether or not the email exists', async () => {
    const a = await activeAccount(t);
    const known = await forgot(a.email);
    const unknown = await forgot('nobody-here@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect((await resetMail(a.email)).text).toMatch(/expires in 1 hour/);
    expect(t.smtp.inbox.some((m) => m.to === 'nobody-here@example.com')).toBe(false);
  });

  it('resets once with the emailed link and signs out every session', async () => {
    const a = await activeAccount(t);
    const session = await login(t, a.email);
    await forgot(a.email);
    const token = await resetToken(a.email);

    let res = await reset(token, 'abc123');
    expect(errorOf(res).message).toBe('Password is Weak');
    res = await post(t, api.auth.resetPassword, {
      token,
      new_password: 'Fr3sh!Password',
      confirm_password: 'Fr3sh!Passwore',
    });
    expect(errorOf(res).message).toBe('Password mismatch');
    res = await reset(token);
    expect(res.statusCode, res.body).toBe(200);

    expect((await refresh(session.refresh)).statusCode).toBe(401);
    await login(t, a.email, 'Fr3sh!Password');
    res = await reset(token, 'An0ther!Password');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Invalid Token, check your email');
    expect(errorOf(await reset('made-up')).message).toBe('Invalid Token, check your email');
  });

  it('lets the link expire after an hour', async () => {
    const a = await activeAccount(t);
    await forgot(a.email);
    const token = await resetToken(a.email);
    t.clock.advance(61 * MIN);
    const res = await reset(token);
    expect(errorOf(res).message).toBe('Invalid Token, check your email');
    await login(t, a.email);
  });

  it('limits reset requests per address, known or not, with the same answer', async () => {
    const a = await activeAccount(t);
    for (const email of [a.email, 'ghost2@example.com']) {
      for (let i = 0; i < 3; i++) expect((await forgot(email)).statusCode).toBe(200);
    }
    const known = await forgot(a.email);
    const unknown = await forgot('ghost2@example.com');
    expect(known.statusCode).toBe(429);
    expect(known.json()).toEqual(unknown.json());
    expect(errorOf(known).message).toBe('Too many reset requests. Please wait 60 minutes and try again.');
  });
});

describe('change password', () => {
  const change = (access: string, body: Record<string, string>) =>
    t.app.inject({ method: 'PUT', url: api.auth.changePassword, headers: bearer(access), payload: body });

  it('needs the current password, then signs out other sessions', async () => {
    const a = await activeAccount(t);
    const s = await login(t, a.email);
    const other = await login(t, a.email);
    let res = await change(s.access, {
      oldPassword: 'Wr0ng!Password',
      newPassword: 'Ch4nged!Pass',
      confirmPassword: 'Ch4nged!Pass',
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Your current password is not correct');
    res = await change(s.access, { oldPassword: PASSWORD, newPassword: 'abc123', confirmPassword: 'abc123' });
    expect(errorOf(res).message).toBe('Password is Weak');
    res = await change(s.access, {
      oldPassword: PASSWORD,
      newPassword: 'Ch4nged!Pass',
      confirmPassword: 'Ch4nged!Pasz',
    });
    expect(errorOf(res).message).toBe('Password mismatch');

    res = await change(s.access, {
      oldPassword: PASSWORD,
      newPassword: 'Ch4nged!Pass',
      confirmPassword: 'Ch4nged!Pass',
    });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = res.json();
    expect(fresh.message).toMatch(/changed/);
    expect((await refresh(other.refresh)).statusCode).toBe(401);
    expect((await refresh(fresh.refresh)).statusCode).toBe(200);
    expect((await post(t, api.auth.login, { email: a.email, password: PASSWORD })).statusCode).toBe(401);
    await login(t, a.email, 'Ch4nged!Pass');
  });
});

describe('complete profile', () => {
  const profile = {
    customerTypeId: 1,
    idType: 'NATIONAL_ID',
    idNumber: 'CM90012345ABCD',
    organisationName: 'Mbale Growers Cooperative',
    firstName: 'Jane',
    lastName: 'Namukasa',
    gender: 'FEMALE',
    physicalAddress: 'Plot 4, Republic Street, Mbale',
    nationality: 'Ugandan',
    dob: '1988-04-12',
    occupation: 'Farmer',
  };
  const complete = (access: string, body: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: api.auth.completeProfile, headers: bearer(access), payload: body });

  it('requires the spec fields, checks the date of birth, then marks the account complete', async () => {
    const a = await activeAccount(t);
    const { access } = await login(t, a.email);

    let res = await complete(access, { ...profile, firstName: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      message: 'First name is required',
      fields: { firstName: expect.any(String) },
    });
    res = await complete(access, { ...profile, occupation: undefined });
    expect(errorOf(res).message).toBe('Occupation is required');
    t.clock.set(new Date('2026-06-01T08:00:00Z'));
    res = await complete(access, { ...profile, dob: '2020-01-01' });
    expect(errorOf(res).message).toBe('You must be at least 13 years old (born on or before 2013-06-01)');
    res = await complete(access, { ...profile, dob: '1850-01-01' });
    expect(errorOf(res).message).toBe('Date of birth must be on or after 1900-01-01');
    expect((await me(access)).json().accountComplete).toBe(false);

    res = await complete(access, profile);
    expect(res.statusCode, res.body).toBe(200);
    const { customerTypeId: _, ...shown } = profile;
    expect(res.json()).toMatchObject({ accountComplete: true, profile: { ...shown, middleName: '' } });
    expect((await me(access)).json()).toEqual(res.json());

    res = await complete(access, { ...profile, middleName: 'Auma', occupation: 'Agronomist' });
    expect(res.json().profile).toMatchObject({ middleName: 'Auma', occupation: 'Agronomist' });
    expect((await login(t, a.email)).user.accountComplete).toBe(true);
  });
});

describe('per-address rate limits', () => {
  it('answer 429 with when to retry once a route is called too often from one address', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_MAX: '3' } });
    try {
      for (const url of [api.auth.login, api.auth.forgotPassword, api.auth.verifyEmail]) {
        const body = { email: 'x@example.com', password: 'x', token: 't', verificationCode: '1234' };
        const codes = [];
        for (let i = 0; i < 4; i++) codes.push((await post(limited, url, body)).statusCode);
        expect(codes.slice(0, 3)).not.toContain(429);
        const res = await post(limited, url, body);
        expect(res.statusCode).toBe(429);
        // The wait is what is left of the minute: "1 minute" unless the machine took a second or more.
        expect(errorOf(res).code).toBe('RATE_LIMITED');
        expect(errorOf(res).message).toMatch(
          /^Too many requests from your network\. Please wait (1 minute|[1-5]?\d seconds) and try again\.$/,
        );
      }
      // Other routes keep the global limit.
      expect((await limited.app.inject({ method: 'GET', url: api.health })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('production mode', () => {
  it('has no dev outbox', async () => {
    const prod = await createTestApp({
      env: {
        NODE_ENV: 'production',
        JWT_ACCESS_SECRET: 'a'.repeat(40),
        JWT_REFRESH_SECRET: 'b'.repeat(40),
        SMS_TRANSPORT: 'log',
        AT_CALLBACK_SECRET: 'c'.repeat(24),
      },
    });
    try {
      expect(prod.deps.config.isProduction).toBe(true);
      const res = await prod.app.inject({ method: 'GET', url: api.devOutbox });
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).code).toBe('NOT_FOUND');
    } finally {
      await prod.close();
    }
  });
});
