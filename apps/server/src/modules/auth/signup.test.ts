import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../adapters/mailer.ts';
import { users } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import {
  activeAccount,
  codeIn,
  expertBody,
  farmerBody,
  lastSms,
  PASSWORD,
  post,
  signUp,
  signUpAndVerify,
} from '../../../test/support/auth-flow.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { api, IMPOSSIBLE_PHONE } from '@kutu/contract';

const MIN = 60_000;
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const userCount = async () => (await t.deps.database.db.select({ n: count() }).from(users))[0].n;

describe('sign-up, email verification and activation', () => {
  it('takes a farmer from sign-up to an active account', async () => {
    const s = await signUp(t, 'farmer');
    expect(s.mail.subject).toBe('Your Kutu verification code');
    expect(s.mail.text).toContain(
      `${t.deps.config.publicUrl}/auth/verify-email?token=${s.token}&verificationToken=${s.emailCode}`,
    );

    let res = await post(t, api.auth.login, { email: s.body.email, password: PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toMatch(/email is not verified yet/);

    res = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: s.emailCode });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: expect.stringMatching(/verified/), token: s.token });
    const sms = lastSms(t, s.body.phone_number);
    expect(sms.text).toMatch(/^Kutu: your activation code is \d{4}\./);

    res = await post(t, api.auth.login, { email: s.body.email, password: PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toMatch(/not activated yet.*SMS/);

    // The password was chosen and confirmed at sign-up: activation takes only the token and the SMS code.
    const activation = { otp: codeIn(sms.text), token: s.token };
    res = await post(t, api.auth.activate, { token: s.token });
    expect(errorOf(res).message).toBe('Type in the OTP');
    // A password an older client still sends changes nothing.
    res = await post(t, api.auth.activate, { ...activation, password: 'N3w!Password', confirmPassword: 'x' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Your account is active. You can now sign in.', identifier: s.body.email });

    expect((await post(t, api.auth.login, { email: s.body.email, password: 'N3w!Password' })).statusCode).toBe(401);
    res = await post(t, api.auth.login, { email: s.body.email.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const { user, access } = res.json();
    expect(user).toMatchObject({
      username: s.body.username,
      role: 'farmer',
      phone: s.body.phone_number,
      accountComplete: false,
      profile: null,
      farmer: { farm_location: 'Mbale', farm_size: 2.5, crop_types: ['MAIZE', 'BEANS'] },
      expert: null,
      account: {
        accountNumber: expect.stringMatching(/^KUTU-\d{6}$/),
        accountType: 'Farmer',
        isActivated: true,
        isPhoneVerified: true,
        isEmailVerified: true,
        hasPassword: true,
        website: null,
      },
    });
    const me = await t.app.inject({
      method: 'GET',
      url: api.auth.me,
      headers: { authorization: `Bearer ${access}` },
    });
    expect(me.json()).toEqual(user);

    // The sign-up token is spent.
    res = await post(t, api.auth.activate, activation);
    expect(errorOf(res).message).toBe('Your account is already active. Please sign in.');
  });

  it('takes an expert through the same flow (the code may be sent as a number)', async () => {
    const s = await signUpAndVerify(t, 'expert');
    const res = await post(t, api.auth.activate, { otp: Number(s.smsCode), token: s.token });
    expect(res.statusCode, res.body).toBe(200);
    const login = await post(t, api.auth.login, { email: s.body.email, password: PASSWORD });
    expect(login.json().user).toMatchObject({
      role: 'expert',
      farmer: null,
      expert: { areas_of_expertise: 'Maize and bean diseases', experience_years: 7, institution: 'NaCRRI' },
      account: { accountType: 'Expert', isActivated: true },
    });
  });

  it('refuses a wrong code and counts down the tries', async () => {
    const s = await signUp(t);
    const wrong = s.emailCode === '0000' ? '0001' : '0000';
    const res = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: wrong });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Wrong code. You have 4 tries left.');
    const ok = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: s.emailCode });
    expect(ok.statusCode).toBe(200);
  });

  it('invalidates a code after 5 wrong tries, and a new code works', async () => {
    const s = await signUp(t);
    const wrong = s.emailCode === '0000' ? '0001' : '0000';
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: wrong });
      messages.push(errorOf(res).message);
    }
    expect(messages[3]).toBe('Wrong code. You have 1 try left.');
    expect(messages[4]).toBe('Too many wrong codes. Request a new code.');
    let res = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: s.emailCode });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Too many wrong codes. Request a new code.');

    t.clock.advance(MIN + 1000);
    res = await post(t, api.auth.resendOtp, { actionType: 'EMAIL_VERIFICATION', token: s.token });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = codeIn((await t.smtp.lastMailTo(s.body.email)).text);
    res = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: fresh });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('lets codes expire after 15 minutes; a resent code replaces the old one', async () => {
    const s = await signUp(t);
    t.clock.advance(15 * MIN + 1000);
    let res = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: s.emailCode });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('This code has expired. Request a new code.');

    res = await post(t, api.auth.resendOtp, { actionType: 'EMAIL_VERIFICATION', token: s.token });
    expect(res.statusCode).toBe(200);
    await expect.poll(() => t.smtp.inbox.filter((m) => m.to === s.body.email).length).toBe(2);
    const fresh = codeIn((await t.smtp.lastMailTo(s.body.email)).text);
    if (fresh !== s.emailCode) {
      res = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: s.emailCode });
      expect(errorOf(res).message).toMatch(/^Wrong code/);
    }
    res = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: fresh });
    expect(res.statusCode).toBe(200);

    // The phone code expires the same way.
    const smsCode = codeIn(lastSms(t, s.body.phone_number).text);
    t.clock.advance(15 * MIN + 1000);
    res = await post(t, api.auth.activate, {
      otp: smsCode,
      token: s.token,
    });
    expect(errorOf(res).message).toBe('This code has expired. Request a new code.');
    res = await post(t, api.auth.resendOtp, { actionType: 'PHONE_ACTIVATION', token: s.token });
    expect(res.statusCode).toBe(200);
    res = await post(t, api.auth.activate, {
      otp: codeIn(lastSms(t, s.body.phone_number).text),
      token: s.token,
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('throttles resending: once a minute, five codes an hour', async () => {
    const s = await signUp(t);
    const resend = () => post(t, api.auth.resendOtp, { actionType: 'EMAIL_VERIFICATION', token: s.token });
    let res = await resend();
    expect(res.statusCode).toBe(429);
    expect(errorOf(res)).toEqual({
      code: 'RATE_LIMITED',
      message: 'Please wait 60 seconds before asking for a new code.',
    });
    for (let i = 0; i < 4; i++) {
      t.clock.advance(MIN + 1000);
      res = await resend();
      expect(res.statusCode, res.body).toBe(200);
    }
    t.clock.advance(MIN + 1000);
    res = await resend();
    expect(res.statusCode).toBe(429);
    expect(errorOf(res).message).toBe('You have asked for too many codes. Please try again in 55 minutes.');
    t.clock.advance(55 * MIN);
    expect((await resend()).statusCode).toBe(200);
  });

  it('resends only what is still missing', async () => {
    const s = await signUp(t);
    let res = await post(t, api.auth.resendOtp, { actionType: 'PHONE_ACTIVATION', token: s.token });
    expect(errorOf(res).message).toBe('Please verify your email first.');
    res = await post(t, api.auth.activate, {
      otp: '1234',
      token: s.token,
    });
    expect(errorOf(res).message).toBe('Please verify your email first.');
    await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: s.emailCode });
    res = await post(t, api.auth.resendOtp, { actionType: 'EMAIL_VERIFICATION', token: s.token });
    expect(res.statusCode).toBe(400);
    res = await post(t, api.auth.resendOtp, { actionType: 'BOGUS', token: s.token });
    expect(errorOf(res).message).toBe('actionType must be EMAIL_VERIFICATION or PHONE_ACTIVATION');
    res = await post(t, api.auth.resendOtp, { actionType: 'EMAIL_VERIFICATION', token: 'nope' });
    expect(errorOf(res).message).toBe('This verification token is not valid. Check your email or sign up again.');
  });

  it('refuses a duplicate email or username with 409, also when two sign-ups race', async () => {
    const first = await activeAccount(t);
    let res = await post(t, api.auth.registerFarmer, farmerBody({ email: first.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe('An account with this email already exists. Please sign in instead.');
    res = await post(t, api.auth.registerExpert, expertBody({ username: first.body.username.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe('This username is already taken. Please choose another one.');

    const before = await userCount();
    const sameEmail = farmerBody();
    const sameUsername = farmerBody();
    const racing = await Promise.all([
      post(t, api.auth.registerFarmer, sameEmail),
      post(t, api.auth.registerFarmer, { ...sameEmail, username: `${sameEmail.username}x` }),
      post(t, api.auth.registerFarmer, sameUsername),
      post(t, api.auth.registerFarmer, { ...sameUsername, email: `x${sameUsername.email}` }),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 201, 409, 409]);
    expect(await userCount()).toBe(before + 2);
  });

  it('undoes the sign-up when the email cannot be sent', async () => {
    const broken = await createTestApp();
    try {
      broken.deps.mailer.send = createMailer({ smtpUrl: 'smtp://127.0.0.1:9', from: 'x@y.z' }).send;
      const body = farmerBody();
      const res = await post(broken, api.auth.registerFarmer, body);
      expect(res.statusCode).toBe(503);
      expect(errorOf(res).message).toMatch(/could not send the verification email/);
      const rows = await broken.deps.database.db.select().from(users).where(eq(users.email, body.email));
      expect(rows).toHaveLength(0);
    } finally {
      await broken.close();
    }
  });
});

describe('bad input', () => {
  const endpoints = [
    ['POST', api.auth.registerFarmer],
    ['POST', api.auth.registerExpert],
    ['POST', api.auth.verifyEmail],
    ['POST', api.auth.resendOtp],
    ['POST', api.auth.activate],
    ['POST', api.auth.login],
    ['POST', api.auth.refresh],
    ['POST', api.auth.logout],
    ['POST', api.auth.forgotPassword],
    ['POST', api.auth.resetPassword],
  ] as const;

  it.each(endpoints)(
    '%s %s answers malformed, empty, wrong-typed and oversized bodies with a clear 4xx',
    async (method, url) => {
      const json = { 'content-type': 'application/json' };
      let res = await t.app.inject({ method, url, headers: json, payload: '{"email": ' });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({ code: 'BAD_REQUEST', message: 'The request body is not valid JSON' });

      res = await t.app.inject({ method, url, headers: json, payload: '{}' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).not.toMatch(/undefined|Invalid input/);

      res = await t.app.inject({ method, url, headers: json, payload: '[1,2]' });
      expect(res.statusCode).toBe(400);

      res = await t.app.inject({
        method,
        url,
        headers: json,
        payload: JSON.stringify({ x: 'a'.repeat(1024 * 1024 + 10) }),
      });
      expect(res.statusCode).toBe(413);
      expect(errorOf(res)).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large' });
    },
  );

  it('names the field that is wrong and writes nothing', async () => {
    const before = await userCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'nope' }, 'This is a wrong email'],
      [{ phone_number: '0772123456' }, 'Enter a valid phone number with its country code'],
      // A number no phone can have: a country code that does not exist, a Ugandan number a digit short.
      [{ phone_number: '+999123456789' }, IMPOSSIBLE_PHONE],
      [{ phone_number: '+25677212345' }, IMPOSSIBLE_PHONE],
      [{ farm_size: 'big' }, 'Farm size must be a number of acres'],
      [{ farm_location: undefined }, 'Farm location is required'],
      [{ password: 'abc', confirm_password: 'abc' }, 'Password is Too weak'],
      [{ confirm_password: 'Other!Pass99' }, 'Password mismatch'],
      [{ crop_types: 'MAIZE' }, expect.any(String)],
      [{ username: 42 }, 'Username is required'],
    ];
    for (const [override, message] of cases) {
      const res = await post(t, api.auth.registerFarmer, farmerBody(override));
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(errorOf(res).message).toEqual(message);
    }
    const res = await post(t, api.auth.registerExpert, expertBody({ experience_years: -2 }));
    expect(res.json().error).toMatchObject({
      message: 'Years of experience cannot be negative',
      fields: { experience_years: expect.any(String) },
    });
    expect(await userCount()).toBe(before);
  });
});
