import { api } from '@kutu/contract';
import { expect } from 'vitest';
import type { TestContext } from './app.ts';

export const PASSWORD = 'Gr0w!Smart2026';
let counter = 0;

/** The first 4-digit number in a message: by our convention, the code. */
export function codeIn(text: string): string {
  const code = text.match(/\b(\d{4})\b/)?.[1];
  if (!code) throw new Error(`No code in: ${text}`);
  return code;
}

export function farmerBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const username = `farmer${counter}_${Math.random().toString(36).slice(2, 7)}`;
  return {
    email: `${username}@example.com`,
    username,
    password: PASSWORD,
    confirm_password: PASSWORD,
    phone_number: `+2567${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    farm_location: 'Mbale',
    farm_size: 2.5,
    crop_types: ['MAIZE', 'BEANS'],
    consent: { service: true, sms: true, training: false },
    ...overrides,
  };
}

export function expertBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const username = `expert${counter}_${Math.random().toString(36).slice(2, 7)}`;
  return {
    email: `${username}@example.com`,
    username,
    password: PASSWORD,
    phone_number: `+2547${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    areas_of_expertise: 'Maize and bean diseases',
    certifications: 'MSc Plant Pathology',
    bio: 'Extension officer in Mbale',
    experience_years: 7,
    institution: 'NaCRRI',
    languages_spoken: 'English, Luganda',
    social_links: '',
    consent: { service: true, sms: true },
    ...overrides,
  };
}

/** Request headers, such as the browser's Accept-Language. */
type Headers = Record<string, string>;

export const post = (t: TestContext, url: string, payload: unknown, headers: Headers = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

/** Signs up; returns the sign-up token, the reply's message, the emailed code and the email. */
export async function signUp(
  t: TestContext,
  role: 'farmer' | 'expert' = 'farmer',
  overrides = {},
  headers: Headers = {},
) {
  const body = role === 'farmer' ? farmerBody(overrides) : expertBody(overrides);
  const res = await post(t, role === 'farmer' ? api.auth.registerFarmer : api.auth.registerExpert, body, headers);
  expect(res.statusCode, res.body).toBe(201);
  const mail = await t.smtp.lastMailTo(body.email);
  const { token, message } = res.json() as { token: string; message: string };
  return { body, token, message, emailCode: codeIn(mail.text), mail };
}

/** The newest SMS to this phone. */
export function lastSms(t: TestContext, phone: string) {
  const sms = t.outbox.list().find((m) => m.channel === 'sms' && m.to === phone);
  if (!sms) throw new Error(`No SMS to ${phone}`);
  return sms;
}

/** Signs up and verifies the email; returns what signUp does plus the SMS code. */
export async function signUpAndVerify(
  t: TestContext,
  role: 'farmer' | 'expert' = 'farmer',
  overrides = {},
  headers: Headers = {},
) {
  const s = await signUp(t, role, overrides, headers);
  const res = await post(t, api.auth.verifyEmail, { token: s.token, verificationCode: s.emailCode });
  expect(res.statusCode, res.body).toBe(200);
  return { ...s, smsCode: codeIn(lastSms(t, s.body.phone_number).text) };
}

/** The whole flow: an active account; returns its email, password and phone. */
export async function activeAccount(
  t: TestContext,
  role: 'farmer' | 'expert' = 'farmer',
  overrides = {},
  headers: Headers = {},
) {
  const s = await signUpAndVerify(t, role, overrides, headers);
  const res = await post(t, api.auth.activate, {
    otp: s.smsCode,
    token: s.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...s, email: s.body.email, password: PASSWORD };
}

export async function login(t: TestContext, email: string, password = PASSWORD) {
  const res = await post(t, api.auth.login, { email, password });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access: string; refresh: string; user: Record<string, unknown> };
}
