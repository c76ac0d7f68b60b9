import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import {
  activeAccount,
  codeIn,
  expertBody,
  farmerBody,
  lastSms,
  login,
  PASSWORD,
  post,
} from '../../../test/support/auth-flow.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { api } from '@kutu/contract';
import { CODE_TTL_MS } from './codes.ts';

const MIN = 60_000;
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const smsCount = (phone: string) => t.outbox.list().filter((m) => m.channel === 'sms' && m.to === phone).length;

/** Signs a farmer up without an email; returns the body, the sign-up token and the SMS code. */
async function phoneSignUp(overrides: Record<string, unknown> = {}) {
  const body = farmerBody({ email: undefined, ...overrides });
  const res = await post(t, api.auth.registerFarmer, body);
  expect(res.statusCode, res.body).toBe(201);
  return { body, token: res.json().token as string, smsCode: codeIn(lastSms(t, body.phone_number).text) };
}

async function signInByPhone(phone: string, password = PASSWORD) {
  const res = await post(t, api.auth.login, { identifier: phone, password });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access: string; refresh: string };
}

async function phoneOnlyAccount() {
  const s = await phoneSignUp();
  const res = await post(t, api.auth.activate, {
    otp: s.smsCode,
    token: s.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...s, phone: s.body.phone_number as string };
}

describe('a farmer signs up with a phone number only', () => {
  it('skips the email step: the SMS code and a password activate the account, with no email anywhere', async () => {
    const before = t.smtp.inbox.length;
    const s = await phoneSignUp({ email: '' });
    expect(lastSms(t, s.body.phone_number).text).toMatch(/^Kutu: your activation code is \d{4}\./);

    let res = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: '1234' });
    expect(res.statusCode).toBe(400);
    res = await post(t, api.auth.activate, {
      otp: s.smsCode,
      token: s.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(t.smtp.inbox.length).toBe(before);

    const signedIn = await post(t, api.auth.login, { identifier: s.body.phone_number, password: PASSWORD });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().user).toMatchObject({
      email: null,
      phone: s.body.phone_number,
      account: { isActivated: true, isPhoneVerified: true, isEmailVerified: false },
    });
  });

  it('resends the activation SMS without asking for an email first', async () => {
    const s = await phoneSignUp();
    t.clock.advance(2 * MIN);
    const res = await post(t, api.auth.resendOtp, { actionType: 'PHONE_ACTIVATION', token: s.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(smsCount(s.body.phone_number)).toBe(2);
    const email = await post(t, api.auth.resendOtp, { actionType: 'EMAIL_VERIFICATION', token: s.token });
    expect(email.statusCode).toBe(400);
  });

  it('sends the code and an activation link by SMS when the password is right, activation is missing and the code ran out', async () => {
    const s = await phoneSignUp();
    t.clock.advance(CODE_TTL_MS + MIN);
    const res = await post(t, api.auth.login, { identifier: s.body.phone_number, password: PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toMatch(/not activated yet.*by SMS/);
    const sms = lastSms(t, s.body.phone_number).text;
    expect(sms).toMatch(/^Kutu: code \d{4}, valid 15 minutes\..*\/auth\/activation\?token=/);
  });

  it('refuses a phone number that already has an account, in the words used for a taken email', async () => {
    const first = await phoneOnlyAccount();
    for (const email of [undefined, 'someone-new@example.com']) {
      const res = await post(t, api.auth.registerFarmer, farmerBody({ email, phone_number: first.phone }));
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).message).toBe('An account with this phone number already exists. Please sign in instead.');
      expect(errorOf(res).fields).toEqual({ phone_number: 'Already registered' });
    }
    const expert = await post(t, api.auth.registerExpert, expertBody({ phone_number: first.phone }));
    expect(expert.statusCode).toBe(409);
  });

  it('still needs an email from an expert', async () => {
    for (const email of [undefined, '']) {
      const res = await post(t, api.auth.registerExpert, expertBody({ email }));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).fields?.email).toBeTruthy();
    }
  });
});

describe('signing in by phone number', () => {
  it('takes the phone number in identifier, spaces allowed, and the old email field still works', async () => {
    const a = await phoneOnlyAccount();
    const spaced = `${a.phone.slice(0, 4)} ${a.phone.slice(4, 7)} ${a.phone.slice(7)}`;
    expect((await post(t, api.auth.login, { identifier: spaced, password: PASSWORD })).statusCode).toBe(200);

    const withEmail = await activeAccount(t);
    await login(t, withEmail.email);
    const byIdentifier = await post(t, api.auth.login, { identifier: withEmail.email, password: PASSWORD });
    expect(byIdentifier.statusCode).toBe(200);
    const byPhone = await post(t, api.auth.login, { identifier: withEmail.body.phone_number, password: PASSWORD });
    expect(byPhone.statusCode).toBe(200);
  });

  it('answers a wrong password exactly like an unknown number', async () => {
    const a = await phoneOnlyAccount();
    const wrong = await post(t, api.auth.login, { identifier: a.phone, password: 'Wr0ng!Password' });
    const unknown = await post(t, api.auth.login, { identifier: '+256700000001', password: PASSWORD });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(errorOf(wrong).message).toBe('Wrong phone number or password');
  });

  it('needs an email or a phone number', async () => {
    const res = await post(t, api.auth.login, { password: PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields?.identifier).toBe('Enter your email or phone number');
  });
});

describe('resetting the password by SMS code', () => {
  const forgot = (phone: string) => post(t, api.auth.forgotPassword, { phone });
  const reset = (phone: string, code: string, password = 'Fr3sh!Password') =>
    post(t, api.auth.resetPasswordByCode, { phone, code, new_password: password, confirm_password: password });
  async function resetCode(phone: string) {
    const find = () =>
      t.outbox.list().find((m) => m.channel === 'sms' && m.to === phone && m.text.includes('password reset code'));
    await expect.poll(find).toBeDefined();
    return codeIn(find()!.text);
  }

  it('answers the same whether or not the number has an account, and texts only a real one', async () => {
    const a = await phoneOnlyAccount();
    const known = await forgot(a.phone);
    const unknown = await forgot('+256700000002');
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toMatch(/If an account uses this phone number/);
    expect(await resetCode(a.phone)).toMatch(/^\d{4}$/);
    await new Promise((r) => setTimeout(r, 50));
    expect(smsCount('+256700000002')).toBe(0);
  });

  it('sets the new password with the code once, and signs out every session', async () => {
    const a = await phoneOnlyAccount();
    const session = await signInByPhone(a.phone);
    await forgot(a.phone);
    const code = await resetCode(a.phone);

    let res = await reset(a.phone, code, 'abc123');
    expect(errorOf(res).message).toBe('Password is Weak');
    res = await reset(a.phone, code);
    expect(res.statusCode, res.body).toBe(200);
    expect((await post(t, api.auth.refresh, { refresh: session.refresh })).statusCode).toBe(401);
    expect((await post(t, api.auth.login, { identifier: a.phone, password: PASSWORD })).statusCode).toBe(401);
    await signInByPhone(a.phone, 'Fr3sh!Password');

    res = await reset(a.phone, code, 'An0ther!Password');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('There is no active code. Request a new code.');
  });

  it('counts wrong codes, refuses an expired one, and answers an unknown number like one with no code', async () => {
    const a = await phoneOnlyAccount();
    await forgot(a.phone);
    const code = await resetCode(a.phone);
    const wrong = code === '0000' ? '1111' : '0000';
    let res = await reset(a.phone, wrong);
    expect(errorOf(res).message).toBe('Wrong code. You have 4 tries left.');
    for (let i = 0; i < 4; i++) res = await reset(a.phone, wrong);
    expect(errorOf(res).message).toBe('Too many wrong codes. Request a new code.');
    res = await reset(a.phone, code);
    expect(errorOf(res).message).toBe('Too many wrong codes. Request a new code.');

    const b = await phoneOnlyAccount();
    await forgot(b.phone);
    const late = await resetCode(b.phone);
    t.clock.advance(16 * MIN);
    res = await reset(b.phone, late);
    expect(errorOf(res).message).toBe('This code has expired. Request a new code.');

    const unknown = await reset('+256700000003', '1234');
    const noCode = await reset((await phoneOnlyAccount()).phone, '1234');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(noCode.json());
  });

  it('limits reset requests per number, known or not, with the same answer', async () => {
    const a = await phoneOnlyAccount();
    for (const phone of [a.phone, '+256700000004']) {
      for (let i = 0; i < 3; i++) expect((await forgot(phone)).statusCode).toBe(200);
    }
    const known = await forgot(a.phone);
    const unknown = await forgot('+256700000004');
    expect(known.statusCode).toBe(429);
    expect(known.json()).toEqual(unknown.json());
  });
});

describe('adding an email later (Profile)', () => {
  async function signedIn() {
    const a = await phoneOnlyAccount();
    const { access } = await signInByPhone(a.phone);
    const send = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${access}` } });
    return { ...a, send };
  }

  it('emails a code that adds only that address, verified, and the email then signs in', async () => {
    const a = await signedIn();
    const email = `${a.body.username}@example.com`.toLowerCase();
    let res = await a.send(api.auth.addEmail, { email: email.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
    const code = codeIn((await t.smtp.lastMailTo(email)).text);

    res = await a.send(api.auth.confirmEmail, { email: 'other@example.com', code });
    expect(errorOf(res).message).toBe('Wrong code. You have 4 tries left.');
    res = await a.send(api.auth.confirmEmail, { email, code });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email, account: { isEmailVerified: true } });
    expect((await post(t, api.auth.login, { identifier: email, password: PASSWORD })).statusCode).toBe(200);

    res = await a.send(api.auth.addEmail, { email: 'second@example.com' });
    expect(errorOf(res).message).toBe('Your account already has an email address.');
  });

  it('refuses an address another account uses, and needs a sign-in', async () => {
    const other = await activeAccount(t);
    const a = await signedIn();
    const res = await a.send(api.auth.addEmail, { email: other.email });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe('An account with this email already exists. Please sign in instead.');
    const anonymous = await post(t, api.auth.addEmail, { email: 'x@example.com' });
    expect(anonymous.statusCode).toBe(401);
  });
});
