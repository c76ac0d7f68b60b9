import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { STRONG_PASSWORD, uniqueName } from './support.ts';

// A farmer with a phone and no email signs up, activates, signs in and resets the password by SMS.

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

/** The newest SMS code to `phone` whose text matches `kind`, read from the development outbox. */
async function smsCode(request: APIRequestContext, phone: string, kind: RegExp): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get('/api/dev/outbox/');
      const { results } = (await res.json()) as { results: { to: string; text: string }[] };
      code = results.find((m) => m.to === phone && kind.test(m.text))?.text.match(/\b(\d{4})\b/)?.[1];
      return code;
    })
    .toBeTruthy();
  return code!;
}

async function typeCode(page: Page, label: string, code: string) {
  await page.getByLabel(`${label} 1/4`).click();
  await page.keyboard.type(code);
}

async function signIn(page: Page, identifier: string, password: string) {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await field(page, 'Email or phone number').fill(identifier);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('a farmer signs up with a phone number only, activates by SMS, signs in by phone and resets the password by SMS', async ({
  page,
  request,
}) => {
  // Sign-up, activation, two sign-ins and a reset by SMS, each with an argon2id hash: slow on a busy machine.
  test.setTimeout(180_000);
  const username = uniqueName('phonefarmer');
  const subscriber = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  const phone = { national: `077${subscriber}`, e164: `+25677${subscriber}` };
  const newPassword = 'Kahawa#Mbale2027';

  await page.goto('/auth');
  await page.getByRole('link', { name: 'Sign up as a farmer' }).click();
  await expect(page.getByRole('heading', { name: 'Create a farmer account' })).toBeVisible();
  await expect(field(page, 'Email (optional)')).toHaveValue('');
  await field(page, 'Username').fill(username);
  await field(page, 'Password').fill(STRONG_PASSWORD);
  await field(page, 'Confirm password').fill(STRONG_PASSWORD);
  await field(page, 'Phone number').fill(phone.national);
  await field(page, 'Farm location').fill('Mbale');
  await field(page, 'Farm size (acres)').fill('1.5');
  await page.getByRole('checkbox', { name: /Kutu keeps my name/ }).check();
  await page.getByRole('button', { name: 'Sign Up' }).click();

  // No email step: straight to the SMS code.
  await expect(page).toHaveURL(/\/auth\/activation\?token=/);
  await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
  await typeCode(page, 'One-time code', await smsCode(request, phone.e164, /activation code/));
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(page).toHaveURL(/\/auth\?identifier=/);
  await expect(field(page, 'Email or phone number')).toHaveValue(phone.e164);

  await signIn(page, `+256 77${subscriber}`, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('topbar-username')).toHaveText(username);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // Forgot password, the SMS way: the code and the new password on one screen.
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
  await page.getByText('By SMS').click();
  await field(page, 'Phone number').fill(phone.national);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/we have sent it a 4-digit code by SMS/)).toBeVisible();
  await typeCode(page, 'Code from the SMS', await smsCode(request, phone.e164, /password reset code/));
  await field(page, 'New password').fill(newPassword);
  await field(page, 'Confirm password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  await signIn(page, phone.e164, STRONG_PASSWORD);
  await expect(page.getByText('Wrong phone number or password')).toBeVisible();
  await signIn(page, phone.e164, newPassword);
  await expect(page).toHaveURL(/\/account$/);
  // The dashboard has finished loading: a context closed mid-load once held teardown for 90 s.
  await expect(page.getByRole('heading', { name: 'Farmer Dashboard' })).toBeVisible();
});
