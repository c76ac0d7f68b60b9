import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, bearer } from '../../../test/support/users.ts';
import { t as text } from '../../i18n/i18n.ts';
import { activeAccount, codeIn, farmerBody, login, PASSWORD, post, signUp } from '../../../test/support/auth-flow.ts';
import { api, notificationsApi, communityApi, communityPath } from '@kutu/contract';

let t: TestContext;
beforeAll(async () => {
  // The dev outbox is served only while mail is only logged (the SMTP peer still receives each email).
  t = await createTestApp({ env: { MAIL_TRANSPORT: 'log' } });
});
afterAll(() => t.close());

interface OutboxEntry {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
}
async function outboxTo(address: string): Promise<OutboxEntry[]> {
  const res = await t.app.inject({ method: 'GET', url: api.devOutbox });
  return (res.json().results as OutboxEntry[]).filter((m) => m.to === address);
}
/** PUT /api/auth/language/ as the caller whose headers are given. */
const chooseLanguage = (headers: Record<string, string>, language: string) =>
  t.app.inject({ method: 'PUT', url: api.auth.language, headers, payload: { language } });

describe('the account language at sign-up', () => {
  it('is the one chosen in the form, over the browser language', async () => {
    const a = await activeAccount(t, 'farmer', { language: 'lg' }, { 'accept-language': 'sw' });
    expect(a.mail.subject).toBe("Koodi yo ey'okukakasa eya Kutu");
    expect((await login(t, a.email)).user.language).toBe('lg');
  });

  it('is the browser language (Accept-Language) when the form names none', async () => {
    const s = await signUp(t, 'farmer', {}, { 'accept-language': 'fr-FR, sw-KE;q=0.8, en;q=0.5' });
    expect(s.mail.subject).toBe('Msimbo wako wa uthibitisho wa Kutu');
  });

  it('is English without either', async () => {
    const a = await activeAccount(t);
    expect((await login(t, a.email)).user.language).toBe('en');
  });

  it('refuses a language Kutu does not write', async () => {
    const res = await post(t, api.auth.registerFarmer, farmerBody({ language: 'fr' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', fields: { language: expect.any(String) } });
  });
});

describe('emails and SMS in the account language', () => {
  it('sends a Kiswahili sign-up its email and SMS in Kiswahili, code first (dev outbox)', async () => {
    const s = await signUp(t, 'farmer', { language: 'sw' });
    const [mail] = await outboxTo(s.body.email);
    expect(mail.subject).toBe('Msimbo wako wa uthibitisho wa Kutu');
    expect(mail.text).toMatch(/^Habari,\n\nKaribu Kutu! Msimbo wako wa uthibitisho wa barua pepe ni: \d{4}\n/);
    expect(codeIn(mail.text)).toBe(s.emailCode);

    const verified = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: s.emailCode });
    expect(verified.statusCode, verified.body).toBe(200);
    const [sms] = (await outboxTo(s.body.phone_number)).filter((m) => m.channel === 'sms');
    expect(sms.text).toMatch(/^Kutu: msimbo wako wa kuwezesha akaunti ni \d{4}\. Unaisha baada ya dakika 15\./);
    expect(sms.text.length).toBeLessThanOrEqual(160);
    const activated = await post(t, api.auth.activate, {
      otp: codeIn(sms.text),
      token: s.token,
    });
    expect(activated.statusCode, activated.body).toBe(200);
  });
});

describe('PUT /api/auth/language/', () => {
  it('changes the account language, shown in GET /api/auth/me/', async () => {
    const a = await activeAccount(t);
    const { access } = await login(t, a.email);
    const res = await chooseLanguage(bearer(access), 'lg');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ language: 'lg' });
    const me = await t.app.inject({ method: 'GET', url: api.auth.me, headers: bearer(access) });
    expect(me.json().language).toBe('lg');
  });

  it('refuses a caller who is not signed in', async () => {
    const res = await t.app.inject({ method: 'PUT', url: api.auth.language, payload: { language: 'sw' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a language Kutu does not write with a VALIDATION_ERROR', async () => {
    const a = await activeAccount(t);
    const { access } = await login(t, a.email);
    const res = await chooseLanguage(bearer(access), 'fr');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Language must be en, sw or lg',
      fields: { language: 'Language must be en, sw or lg' },
    });
  });
});

describe('error messages in the reader language', () => {
  const wrongLogin = (headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: api.auth.login,
      payload: { email: 'nobody@example.com', password: 'Wr0ng!Password' },
      headers,
    });

  it('follows Accept-Language when nobody is signed in, keeping the code', async () => {
    const res = await wrongLogin({ 'accept-language': 'lg-UG, en;q=0.5' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: "Email oba ekigambo eky'ekyama si kituufu" },
    });
  });

  it('is English without Accept-Language, word for word as before', async () => {
    expect((await wrongLogin()).json().error.message).toBe('Wrong email or password');
    expect((await wrongLogin({ 'accept-language': 'fr' })).json().error.message).toBe('Wrong email or password');
  });

  it('translates the contract field messages of a validation error', async () => {
    const res = await post(t, api.auth.registerFarmer, farmerBody({ confirm_password: 'Different!2026' }), {
      'accept-language': 'sw',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Manenosiri hayalingani',
      fields: { confirm_password: 'Manenosiri hayalingani' },
    });
  });

  it("follows the signed-in account's language over Accept-Language, also right after it changes", async () => {
    const a = await activeAccount(t, 'farmer', { language: 'sw' });
    const { access } = await login(t, a.email);
    const wrongPassword = () =>
      t.app.inject({
        method: 'PUT',
        url: api.auth.changePassword,
        headers: { ...bearer(access), 'accept-language': 'en' },
        payload: {
          oldPassword: 'Not!MyPassword1',
          newPassword: 'N3w!Password2026',
          confirmPassword: 'N3w!Password2026',
        },
      });
    const sw = await wrongPassword();
    expect(sw.statusCode).toBe(400);
    expect(sw.json().error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Nenosiri lako la sasa si sahihi',
      fields: { oldPassword: 'Si sahihi' },
    });

    const bad = await chooseLanguage(bearer(access), 'fr');
    expect(bad.json().error.fields).toEqual({ language: 'Lugha lazima iwe en, sw au lg' });

    await chooseLanguage(bearer(access), 'lg');
    const missing = await t.app.inject({
      method: 'PUT',
      url: notificationsApi.markReadPath(999999),
      headers: { ...bearer(access), 'accept-language': 'sw' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual({ code: 'NOT_FOUND', message: 'Obubaka obukumanyisa tebusangiddwa' });
  });
});

describe('notifications in the recipient language', () => {
  it('reads every notification in Luganda once the farmer switched to it, those written before too', async () => {
    const farmer = await createUser(t, 'farmer');
    const expert = await createUser(t, 'expert');
    const approvePostOf = async (title: string) => {
      const post = await t.app.inject({
        method: 'POST',
        url: communityApi.posts,
        headers: farmer.headers,
        payload: {
          title,
          content: 'Small orange pustules appeared on both sides of the leaves this week.',
          crop_type: 'MAIZE',
          disease_type: 'common_rust',
          urgency_level: 'high',
        },
      });
      expect(post.statusCode, post.body).toBe(201);
      const moderated = await t.app.inject({
        method: 'PUT',
        url: communityPath(communityApi.moderatePost, { id: post.json().id }),
        headers: expert.headers,
        payload: { action: 'approve' },
      });
      expect(moderated.statusCode, moderated.body).toBe(200);
    };
    const latest = async () => {
      const res = await t.app.inject({ method: 'GET', url: notificationsApi.list, headers: farmer.headers });
      return res.json().results[0].message as string;
    };

    await approvePostOf('Orange spots');
    expect(await latest()).toBe('Your post "Orange spots" has been approved and is visible to the community');

    const switched = await chooseLanguage(farmer.headers, 'lg');
    expect(switched.statusCode, switched.body).toBe(200);
    await approvePostOf('Obutonnyeze');
    expect(await latest()).toBe('Obubaka bwo "Obutonnyeze" bukkiriziddwa era abalimi banno basobola okubulaba');
    // The one written before the switch is in Luganda now too: a notification is rendered when read.
    const all = await t.app.inject({ method: 'GET', url: notificationsApi.list, headers: farmer.headers });
    expect(all.json().results[1].message).toBe(
      'Obubaka bwo "Orange spots" bukkiriziddwa era abalimi banno basobola okubulaba',
    );
  });
});

describe('success messages in the reader language', () => {
  it('answers sign-up, forgot password and sign-out in the Accept-Language language, English without one', async () => {
    const signUpSw = await signUp(t, 'farmer', {}, { 'accept-language': 'sw-KE' });
    expect(signUpSw.message).toBe(
      `Tumetuma msimbo wa tarakimu 4 kwa ${signUpSw.body.email}. Uandike ili kuthibitisha barua pepe yako.`,
    );

    const forgot = (headers: Record<string, string>) =>
      post(t, api.auth.forgotPassword, { email: 'nobody@example.com' }, headers);
    expect((await forgot({ 'accept-language': 'lg' })).json().message).toMatch(
      /^Bwe wabaawo akawunti ekozesa email eno/,
    );
    expect((await forgot({})).json().message).toBe(
      'If an account uses this email, we have sent it a link to reset the password. It works for 1 hour.',
    );
  });

  it("follows the signed-in account's language over Accept-Language", async () => {
    const a = await activeAccount(t, 'farmer', { language: 'sw' });
    const { access } = await login(t, a.email);
    const changed = await t.app.inject({
      method: 'PUT',
      url: api.auth.changePassword,
      headers: { ...bearer(access), 'accept-language': 'en' },
      payload: { oldPassword: PASSWORD, newPassword: 'N3w!Password2026', confirmPassword: 'N3w!Password2026' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().message).toBe(text('sw', 'success.auth.passwordChanged'));
  });
});
