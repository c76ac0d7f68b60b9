import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { type MessageKey, t as text } from '../../i18n/i18n.ts';
import { codeIn, lastSms, PASSWORD, post, signUp, signUpAndVerify } from '../../../test/support/auth-flow.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { CODE_TTL_MS } from './codes.ts';
import { api } from '@kutu/contract';

/**
 * A sign-up that lost its token: signing in with the right password gives a fresh token for the missing
 * step, and a new code when the one sent has run out; a wrong password or an unknown email still learns
 * nothing and sends nothing.
 */
const MIN = 60_000;
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A catalog text as an English reader gets it. */
const english = (key: MessageKey) => text('en', key);
const mailsTo = (email: string) => t.smtp.inbox.filter((m) => m.to === email.toLowerCase());
const smsTo = (phone: string) => t.outbox.list().filter((m) => m.channel === 'sms' && m.to === phone);
const loginAs = (email: string, password = PASSWORD) => post(t, api.auth.login, { email, password });
const activation = (token: string, otp: string) => ({ token, otp });

/** The path and query of the only link in a message. */
function linkIn(text: string): URL {
  const links = text.match(/https?:\/\/\S+/g) ?? [];
  expect(links).toHaveLength(1);
  return new URL(links[0] ?? '');
}

describe('signing in to an account that never finished signing up', () => {
  it('emails a fresh sign-up token and code when the email is not verified', async () => {
    const s = await signUp(t);
    // The code sent at sign-up has run out: a sign-in sends a new one.
    t.clock.advance(CODE_TTL_MS + 1000);

    const res = await loginAs(s.body.email);
    expect(res.statusCode).toBe(403);
    // The right password was given: the reply carries the sign-up token, so this browser types the code at once.
    expect(errorOf(res)).toEqual({
      code: 'FORBIDDEN',
      message: english('errors.auth.verificationResent'),
      signup: { token: expect.any(String), step: 'verify_email' },
    });
    expect(errorOf(res).message).toMatch(
      /^Your email is not verified yet\. We have emailed you a new verification code/,
    );

    const mails = mailsTo(s.body.email);
    expect(mails).toHaveLength(2);
    const mail = mails[1];
    expect(mail.text).toMatch(/Here is your new email verification code: \d{4}/);
    const link = linkIn(mail.text);
    expect(`${link.origin}${link.pathname}`).toBe(`${t.deps.config.publicUrl}/auth/verify-email`);
    const token = link.searchParams.get('token') ?? '';
    const code = codeIn(mail.text);
    expect(token).not.toBe(s.token);
    expect(errorOf(res).signup?.token).toBe(token);
    expect(link.searchParams.get('verificationToken')).toBe(code);
    expect(smsTo(s.body.phone_number)).toHaveLength(0);

    // The new code replaced the first one; the link's token and code carry on to activation.
    if (code !== s.emailCode) {
      const old = await post(t, api.auth.verifyEmail, { token, verificationCode: s.emailCode });
      expect(errorOf(old).message).toMatch(/^Wrong code/);
    }
    let next = await post(t, api.auth.verifyEmail, { token, verificationCode: code });
    expect(next.statusCode, next.body).toBe(200);
    const smsCode = codeIn(lastSms(t, s.body.phone_number).text);
    next = await post(t, api.auth.activate, activation(token, smsCode));
    expect(next.statusCode, next.body).toBe(200);
    expect((await loginAs(s.body.email)).statusCode).toBe(200);
  });

  it('sends a new SMS code and emails an activation link when only activation is missing', async () => {
    const s = await signUpAndVerify(t);
    t.clock.advance(CODE_TTL_MS + 1000);

    const res = await loginAs(s.body.email);
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toBe(
      'Your account is not activated yet. We sent a new code to your phone and emailed you a link to finish activation.',
    );

    const sms = smsTo(s.body.phone_number);
    expect(sms).toHaveLength(2);
    const smsCode = codeIn(sms[0].text);
    const mails = mailsTo(s.body.email);
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toBe('Finish activating your Kutu account');
    const link = linkIn(mails[1].text);
    expect(`${link.origin}${link.pathname}`).toBe(`${t.deps.config.publicUrl}/auth/activation`);
    const token = link.searchParams.get('token') ?? '';
    expect(token).not.toBe(s.token);
    expect(errorOf(res).signup).toEqual({ token, step: 'activate_phone' });

    // The earlier SMS code was replaced by the new one.
    if (smsCode !== s.smsCode) {
      const old = await post(t, api.auth.activate, activation(token, s.smsCode));
      expect(errorOf(old).message).toMatch(/^Wrong code/);
    }
    const done = await post(t, api.auth.activate, activation(token, smsCode));
    expect(done.statusCode, done.body).toBe(200);
    expect((await loginAs(s.body.email)).statusCode).toBe(200);

    // Activation retired every sign-up token of the account, the lost one included.
    const stale = await post(t, api.auth.resendOtp, { actionType: 'PHONE_ACTIVATION', token: s.token });
    expect(stale.statusCode).toBe(400);
    expect(errorOf(stale).message).toBe('Your account is already active. Please sign in.');
    expect(smsTo(s.body.phone_number)).toHaveLength(2);
  });

  it('while the code sent still works, gives this browser the screen to type it and sends nothing, the same at every sign-in', async () => {
    // Right after sign-up: the first email code was sent less than a minute ago.
    const s = await signUp(t);
    let res = await loginAs(s.body.email);
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toEqual({
      code: 'FORBIDDEN',
      message: english('errors.auth.notVerified'),
      signup: { token: expect.any(String), step: 'verify_email' },
    });
    expect(mailsTo(s.body.email)).toHaveLength(1);
    // The token given at sign-in takes the code sent at sign-up.
    res = await post(t, api.auth.verifyEmail, { token: errorOf(res).signup?.token, verificationCode: s.emailCode });
    expect(res.statusCode, res.body).toBe(200);

    // After verification, during the minute before a new SMS code may be sent, and after it: every sign-in
    // says the same (no wait that restarts), gives the code screen, and sends nothing.
    let token = '';
    for (const wait of [20_000, 15_000, 30_000, 2 * MIN]) {
      t.clock.advance(wait);
      res = await loginAs(s.body.email);
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).message).toBe(english('errors.auth.notActivated'));
      expect(errorOf(res).signup?.step).toBe('activate_phone');
      token = errorOf(res).signup?.token ?? '';
    }
    expect(smsTo(s.body.phone_number)).toHaveLength(1);
    expect(mailsTo(s.body.email)).toHaveLength(1);
    res = await post(t, api.auth.activate, activation(token, codeIn(lastSms(t, s.body.phone_number).text)));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('gives the code screen and says when to ask again when the code is used up and a new one must wait', async () => {
    const s = await signUpAndVerify(t);
    // Five wrong tries use up the SMS code sent a moment ago: a new one may go out a minute after it.
    const wrong = s.smsCode === '0000' ? '1111' : '0000';
    for (let i = 0; i < 5; i++) await post(t, api.auth.activate, activation(s.token, wrong));
    t.clock.advance(20_000);
    let res = await loginAs(s.body.email);
    expect(errorOf(res).message).toBe(
      `${english('errors.auth.notActivated')} Please wait 40 seconds before asking for a new code.`,
    );
    expect(errorOf(res).signup?.step).toBe('activate_phone');
    expect(smsTo(s.body.phone_number)).toHaveLength(1);
    t.clock.advance(40_000);
    res = await loginAs(s.body.email);
    expect(errorOf(res).message).toBe(english('errors.auth.activationResent'));
    expect(smsTo(s.body.phone_number)).toHaveLength(2);
    const fresh = codeIn(lastSms(t, s.body.phone_number).text);
    res = await post(t, api.auth.activate, activation(errorOf(res).signup?.token ?? '', fresh));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('answers a wrong password exactly like an unknown email, and sends nothing', async () => {
    const unverified = await signUp(t);
    const verified = await signUpAndVerify(t);
    t.clock.advance(MIN + 1000);
    const unknown = await loginAs('nobody-here@example.com', 'Wr0ng!Password');
    for (const s of [unverified, verified]) {
      const mails = mailsTo(s.body.email).length;
      const sms = smsTo(s.body.phone_number).length;
      const wrong = await loginAs(s.body.email, 'Wr0ng!Password');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual(unknown.json());
      expect(errorOf(wrong).message).toBe('Wrong email or password');
      expect(mailsTo(s.body.email)).toHaveLength(mails);
      expect(smsTo(s.body.phone_number)).toHaveLength(sms);
    }
    expect(mailsTo('nobody-here@example.com')).toHaveLength(0);
  });
});
