import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import serverLg from '../apps/server/src/i18n/locales/lg.json' with { type: 'json' };
import serverSw from '../apps/server/src/i18n/locales/sw.json' with { type: 'json' };
import en from '../apps/web/src/lib/locales/en.json' with { type: 'json' };
import sw from '../apps/web/src/lib/locales/sw.json' with { type: 'json' };
import { createActiveUser, latestCode, leafPhoto, STRONG_PASSWORD, uniqueName } from './support.ts';

// A farmer who reads Kiswahili signs up, diagnoses a leaf and reads the advice in it, then
// moves to Luganda in Profile, and what the server writes next follows.

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

async function typeCode(page: Page, label: string, code: string) {
  await page.getByLabel(`${label} 1/4`).click();
  await page.keyboard.type(code);
}

/** The newest outbox message to `to`. */
async function latestMessage(request: APIRequestContext, to: string): Promise<{ subject?: string; text: string }> {
  const res = await request.get('/api/dev/outbox/');
  const { results } = (await res.json()) as { results: { to: string; subject?: string; text: string }[] };
  const msg = results.find((m) => m.to.toLowerCase() === to.toLowerCase());
  expect(msg, `a message to ${to}`).toBeTruthy();
  return msg!;
}

/** The longest fixed part of a template ("{{expert}} approved your booking about …" → " approved your booking about \""). */
const fixedPart = (template: string) =>
  template
    .split(/\{\{[^}]+\}\}/)
    .sort((a, b) => b.length - a.length)[0]!
    .trim();

async function bearer(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/api/auth/login/', { data: { email, password } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return { authorization: `Bearer ${(await res.json()).access}` };
}

test('a farmer signs up in Kiswahili, reads codes, result and advice in it, then gets notices in Luganda', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const username = uniqueName('mkulima');
  const email = `${username}@example.com`;
  const subscriber = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  const phone = { national: `077${subscriber}`, e164: `+25677${subscriber}` };

  await page.goto('/auth');
  await page.getByTestId('language-switch').selectOption('sw');
  await expect(page.getByRole('heading', { name: sw.auth.login.title })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'sw');
  await page.getByRole('link', { name: sw.auth.login.farmerSignup }).click();
  await expect(page.getByRole('heading', { name: sw.auth.signup.farmerTitle })).toBeVisible();
  await field(page, sw.auth.fields.emailOptional).fill(email);
  await field(page, sw.auth.fields.username).fill(username);
  await field(page, sw.auth.fields.password).fill(STRONG_PASSWORD);
  await field(page, sw.auth.fields.confirmPassword).fill(STRONG_PASSWORD);
  await field(page, sw.auth.phone.number).fill(phone.national);
  await field(page, sw.auth.fields.farmLocation).fill('Mbale');
  await field(page, sw.auth.fields.farmSize).fill('2');
  await page.getByRole('checkbox', { name: sw.auth.crops.MAIZE }).check();
  await page.getByRole('checkbox', { name: sw.auth.signup.consent.service }).check();
  // SMS too: the booking's answer is checked by SMS below (without it, SMS stay off as after STOP).
  await page.getByRole('checkbox', { name: sw.auth.signup.consent.sms }).check();
  await page.getByRole('button', { name: sw.auth.signup.submit }).click();

  // The email and the SMS are written in Kiswahili, the account's language from sign-up.
  await expect(page).toHaveURL(/\/auth\/verify-email\?token=/);
  const emailCode = await latestCode(request, email);
  const mail = await latestMessage(request, email);
  expect(mail.subject).toBe(serverSw.mail.verification.subject);
  expect(mail.text).toContain(serverSw.mail.verification.introNew);
  await typeCode(page, sw.auth.verify.code, emailCode);
  await page.getByRole('button', { name: sw.auth.verify.submit, exact: true }).click();

  await expect(page.getByRole('heading', { name: sw.auth.activation.title })).toBeVisible();
  const smsCode = await latestCode(request, phone.e164);
  expect((await latestMessage(request, phone.e164)).text).toBe(serverSw.sms.activation.replace('{{code}}', smsCode));
  await typeCode(page, sw.auth.activation.code, smsCode);
  await page.getByRole('button', { name: sw.auth.activation.submit }).click();
  await expect(page).toHaveURL(/\/auth\?identifier=/);

  await field(page, sw.auth.fields.emailOrPhone).fill(email);
  await field(page, sw.auth.fields.password).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: sw.auth.login.submit }).click();
  await expect(page).toHaveURL(/\/account$/);

  // A leaf photo: the result's heading and the advice (from the server) are in Kiswahili.
  await page.getByRole('main').getByRole('link', { name: sw.dashboard.links.uploadImage }).click();
  await expect(page.getByRole('heading', { name: sw.analysis.upload.title })).toBeVisible();
  await page.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles(leafPhoto);
  await page.getByRole('button', { name: sw.analysis.upload.process }).click();
  const result = page.getByTestId('analysis-result');
  const headings = Object.values(sw.analysis.result.heading).map((h) => h.replace('{{guess}}', ''));
  await expect(result.getByTestId('result-heading')).toBeVisible({ timeout: 30_000 });
  const heading = (await result.getByTestId('result-heading').textContent()) ?? '';
  expect(
    headings.some((h) => heading.startsWith(h)),
    heading,
  ).toBe(true);
  expect(Object.values(en.analysis.result.heading)).not.toContain(heading);
  const farmer = await bearer(request, email, STRONG_PASSWORD);
  const advice = await request.get('/api/advice/', { headers: { ...farmer, 'accept-language': 'sw' } });
  const swHeadlines = ((await advice.json()).results as { headline: string; language: string }[])
    .filter((a) => a.language === 'sw')
    .map((a) => a.headline);
  expect(swHeadlines).toContain(await result.getByTestId('advice-headline').textContent());

  // Luganda, chosen in Profile, is stored on the account…
  await page.goto('/account/profile');
  await page.getByRole('main').getByRole('combobox', { name: sw.profile.language }).selectOption('lg');
  await expect(page.locator('html')).toHaveAttribute('lang', 'lg');
  await expect
    .poll(async () => (await (await request.get('/api/auth/me/', { headers: farmer })).json()).language)
    .toBe('lg');

  // …so the next notice, written while the farmer is away, is in Luganda.
  const expert = await createActiveUser(request, 'expert');
  const expertAuth = await bearer(request, expert.email, expert.password);
  const start = new Date(Date.now() + 2 * 24 * 3600_000);
  start.setUTCHours(6, 0, 0, 0);
  const slot = await request.post('/api/consultations/availability-slots/', {
    headers: expertAuth,
    data: { start_time: start.toISOString(), end_time: new Date(start.getTime() + 3600_000).toISOString() },
  });
  expect(slot.status(), await slot.text()).toBe(201);
  const booking = await request.post('/api/consultations/consultations/', {
    headers: farmer,
    data: { slot_id: (await slot.json()).id, topic: 'Kutu kwenye mahindi' },
  });
  expect(booking.status(), await booking.text()).toBe(201);
  const decided = await request.put('/api/consultations/consultations/manage/', {
    headers: expertAuth,
    data: {
      booking_id: (await booking.json()).id,
      action: 'approve',
      selected_date: new Date(start.getTime() + 15 * 60_000).toISOString(),
    },
  });
  expect(decided.ok(), await decided.text()).toBeTruthy();

  await page.goto('/account');
  await expect(page.getByTestId('notifications-card')).toContainText(
    fixedPart(serverLg.consultations.approved.message),
  );
  expect((await latestMessage(request, phone.e164)).text).toContain(fixedPart(serverLg.consultations.approved.sms));
});
