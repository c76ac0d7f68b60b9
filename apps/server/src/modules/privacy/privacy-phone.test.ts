import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { api, clinicApi, phoneApi, privacyApi } from '@kutu/contract';
import { consents, users } from '../../db/schema/index.ts';
import { createTestApp, joinSmsParts, type TestContext } from '../../../test/support/app.ts';
import { codeIn, farmerBody, post } from '../../../test/support/auth-flow.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { scanFor } from '../../../test/support/personal-scan.ts';

const KEY = 'gateway-secret-for-the-privacy-tests';

describe('consent at every way in, deletion by SMS, and a try-out that registers nobody', () => {
  let t: TestContext;
  let expert: TestUser;
  const db = () => t.deps.database.db;

  beforeAll(async () => {
    t = await createTestApp({ env: { AT_CALLBACK_SECRET: KEY, PHONE_RATE_LIMIT_MAX: '10000' } });
    expert = await createUser(t, 'expert');
  });
  afterAll(() => t.close());

  const dial = async (phone: string, answers: string[]) => {
    let body = '';
    for (let i = 0; i <= answers.length; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${phoneApi.ussd}?key=${KEY}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          sessionId: `p${phone}`,
          phoneNumber: phone,
          text: answers.slice(0, i).join('*'),
        }).toString(),
      });
      expect(res.statusCode).toBe(200);
      body = res.body;
    }
    return body;
  };
  const inbound = (from: string, text: string) =>
    t.app.inject({
      method: 'POST',
      url: `${phoneApi.sms}?key=${KEY}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ from, to: '12345', text }).toString(),
    });
  const lastSms = (to: string) =>
    joinSmsParts(t.outbox.list().filter((m) => m.channel === 'sms' && m.to === to))[0]?.text ?? '';
  const choices = async (userId: number) =>
    (await db().select().from(consents).where(eq(consents.userId, userId)).orderBy(asc(consents.id))).map((c) => ({
      purpose: c.purpose,
      granted: c.granted,
      channel: c.channel,
      version: c.textVersion,
    }));
  const userByPhone = async (phone: string) => (await db().select().from(users).where(eq(users.phone, phone)))[0];
  // English, register, agree to the terms, name, Uganda, "Kamp", Kampala, maize; then SMS and photos.
  const register = (sms: '1' | '2', photos: '1' | '2') => ['1', '1', '1', 'Nakato', '1', 'Kamp', '1', '1', sms, photos];

  it('records the three choices at web sign-up, and refuses a sign-up without the service consent', async () => {
    const body = farmerBody({ consent: { service: true, sms: false, training: true } });
    const res = await post(t, api.auth.registerFarmer, body);
    expect(res.statusCode, res.body).toBe(201);
    const user = await userByPhone(body.phone_number);
    expect(await choices(user.id)).toEqual([
      { purpose: 'service', granted: true, channel: 'web', version: '2026-11-v1' },
      { purpose: 'sms', granted: false, channel: 'web', version: '2026-11-v1' },
      { purpose: 'training', granted: true, channel: 'web', version: '2026-11-v1' },
    ]);
    // No SMS is the STOP of before: nothing but codes.
    expect(user.smsStoppedAt).not.toBeNull();
    const refused = await post(
      t,
      api.auth.registerFarmer,
      farmerBody({ consent: { service: false, sms: true, training: true } }),
    );
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json().error.fields)).toMatch(/Agree to Kutu keeping your details/);
  });

  it('asks about SMS and photos at USSD registration and records both; STOP and START change the SMS choice, PHOTOS OFF the training one', async () => {
    const phone = '+256772300001';
    const end = await dial(phone, register('2', '1'));
    expect(end).toMatch(/^END Welcome Nakato!.*no SMS/);
    const user = await userByPhone(phone);
    expect(await choices(user.id)).toEqual([
      { purpose: 'service', granted: true, channel: 'ussd', version: '2026-11-v1' },
      { purpose: 'sms', granted: false, channel: 'ussd', version: '2026-11-v1' },
      { purpose: 'training', granted: true, channel: 'ussd', version: '2026-11-v1' },
    ]);
    expect((await inbound(phone, 'START')).statusCode).toBe(200);
    expect((await userByPhone(phone)).smsStoppedAt).toBeNull();
    expect((await choices(user.id)).at(-1)).toMatchObject({ purpose: 'sms', granted: true, channel: 'sms' });
    // PHOTOS OFF (here in Kiswahili) withdraws the training consent by SMS.
    await inbound(phone, 'picha zima');
    expect((await choices(user.id)).at(-1)).toMatchObject({ purpose: 'training', granted: false, channel: 'sms' });
    expect(lastSms(phone)).toMatch(/will not train the model/);
  });

  it("records a new farmer's choices at a clinic visit", async () => {
    const phone = '+256772300002';
    const form = multipart([{ field: 'photos', filename: 'leaf.jpg', data: fixture('maize-common-rust.jpg') }], {
      phone_number: phone,
      crop: 'maize',
      growth_stage: 'vegetative',
      share_affected: '20',
      farmer_name: 'Akello Grace',
      district: 'UG-102',
      language: 'en',
      consent: 'true',
      consent_sms: 'true',
      consent_training: 'false',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: clinicApi.visits,
      payload: form.payload,
      headers: { ...form.headers, ...expert.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    const user = await userByPhone(phone);
    expect(await choices(user.id)).toEqual([
      { purpose: 'service', granted: true, channel: 'clinic', version: '2026-11-v1' },
      { purpose: 'sms', granted: true, channel: 'clinic', version: '2026-11-v1' },
      { purpose: 'training', granted: false, channel: 'clinic', version: '2026-11-v1' },
    ]);
  });

  it('erases a basic-phone farmer who sends DELETE and then DELETE with the code', async () => {
    const phone = '+256772300003';
    // Asked for help before it had an account: the outbox keeps that reply by the number, and erasure takes it too.
    expect((await inbound(phone, 'HELP')).statusCode).toBe(200);
    await dial(phone, register('1', '2'));
    const user = await userByPhone(phone);
    expect(user).toBeDefined();
    expect((await inbound(phone, 'DELETE')).statusCode).toBe(200);
    const code = codeIn(lastSms(phone));
    expect(lastSms(phone)).toMatch(/Send DELETE \d{4}/);
    const wrong = code === '0000' ? '1111' : '0000';
    await inbound(phone, `DELETE ${wrong}`);
    expect(lastSms(phone)).toMatch(/wrong or too old/);
    expect(await userByPhone(phone)).toBeDefined();
    await inbound(phone, `delete ${code}`);
    expect(lastSms(phone)).toMatch(/deleted\. Dial .* to register again/);
    expect(await userByPhone(phone)).toBeUndefined();
    expect(await scanFor(t.deps.database, [phone, user.username])).toEqual([]);
    // The same number registers again.
    expect(await dial(phone, register('1', '1'))).toMatch(/^END Welcome Nakato!/);
  });

  it('answers FUTA sent again within the minute after five wrong codes with when a new code can be sent', async () => {
    const phone = '+256772300009';
    await createUser(t, 'farmer', { phone, language: 'sw' });
    await inbound(phone, 'FUTA');
    const code = codeIn(lastSms(phone));
    const wrong = code === '0000' ? '1111' : '0000';
    for (let i = 0; i < 5; i++) await inbound(phone, `FUTA ${wrong}`);
    expect(lastSms(phone)).toMatch(/Tuma FUTA kupata nambari mpya/);
    const before = t.outbox.list().length;
    t.clock.advance(20_000);
    await inbound(phone, 'FUTA');
    expect(t.outbox.list().length).toBe(before + 1);
    expect(lastSms(phone)).toBe(
      'Kutu: Tafadhali subiri sekunde 40 kabla ya kuomba msimbo mpya. Kisha tuma FUTA kupata nambari mpya.',
    );
    t.clock.advance(40_000);
    await inbound(phone, 'FUTA');
    expect(codeIn(lastSms(phone))).toMatch(/^\d{4}$/);
    expect(lastSms(phone)).toMatch(/Tuma FUTA \d{4}/);
  });

  it("answers an administrator's DELETE with why the account stays", async () => {
    const admin = await createUser(t, 'admin');
    const res = await inbound(admin.phone, 'DELETE');
    expect(res.statusCode).toBe(200);
    expect(lastSms(admin.phone)).toMatch(/administrator's account cannot be deleted by SMS/);
    expect(await userByPhone(admin.phone)).toBeDefined();
  });

  it('confirms a phone-only account (no password) on the web with a code sent by SMS', async () => {
    const phone = '+256772300004';
    const farmer = await createUser(t, 'farmer', { phone });
    await db().update(users).set({ passwordHash: null }).where(eq(users.id, farmer.id));
    const noPassword = await post(t, privacyApi.deleteAccount, { password: farmer.password }, farmer.headers);
    expect(noPassword.statusCode).toBe(400);
    expect((await post(t, privacyApi.deleteAccount, { code: '1234' }, farmer.headers)).statusCode).toBe(400);
    expect((await post(t, privacyApi.deleteCode, {}, farmer.headers)).statusCode).toBe(204);
    expect((await post(t, privacyApi.deleteCode, {}, farmer.headers)).statusCode).toBe(429);
    const code = codeIn(lastSms(phone));
    const res = await post(t, privacyApi.deleteAccount, { code }, farmer.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(await userByPhone(phone)).toBeUndefined();
  });

  it('runs the try-out registration in a sandbox: no account is left for the number, whose owner can then sign up', async () => {
    const phone = '+256772300005';
    const step = (text: string) =>
      t.app.inject({
        method: 'POST',
        url: phoneApi.simulate,
        headers: expert.headers,
        payload: { session_id: 'try', phone, text },
      });
    let last = await step('');
    const answers = register('1', '1');
    for (let i = 1; i <= answers.length; i++) last = await step(answers.slice(0, i).join('*'));
    expect(last.statusCode).toBe(200);
    // It says what is true: nothing was saved (not "Your Kutu account is ready").
    expect(last.json()).toMatchObject({ end: true, screen: expect.stringMatching(/^Try-out only: nothing was saved/) });
    expect(last.json().screen).not.toMatch(/account is ready/);
    expect(await userByPhone(phone)).toBeUndefined();
    expect(await scanFor(t.deps.database, [phone])).toEqual([]);
    const res = await post(t, api.auth.registerFarmer, farmerBody({ phone_number: phone }));
    expect(res.statusCode, res.body).toBe(201);
  });
});
