import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { approveExpert, createActiveUser, latestCode, STRONG_PASSWORD, uniqueName } from './support.ts';

/** A Ugandan mobile number typed the way people write it at home, and its E.164 form. */
function ugandanPhone() {
  const subscriber = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  return { national: `077${subscriber}`, e164: `+25677${subscriber}` };
}

/** A text, password or number field by its accessible name (a required label's asterisk is not part of it). */
const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

async function typeCode(page: Page, label: string, code: string) {
  await page.getByLabel(`${label} 1/4`).click();
  await page.keyboard.type(code);
}

/** The newest message to `to` whose text has a link, read from the development outbox. */
async function latestLink(request: APIRequestContext, to: string, path: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get('/api/dev/outbox/');
      const { results } = (await res.json()) as { results: { to: string; text: string }[] };
      const msg = results.find((m) => m.to.toLowerCase() === to.toLowerCase() && m.text.includes(path));
      link = msg?.text.match(/https?:\/\/\S+/)?.[0];
      return link;
    })
    .toBeTruthy();
  return new URL(link!).pathname + new URL(link!).search;
}

async function verifyAndActivate(page: Page, request: APIRequestContext, email: string, phone: string) {
  await expect(page).toHaveURL(/\/auth\/verify-email\?token=/);
  const emailCode = await latestCode(request, email);
  await typeCode(page, 'Verification code', emailCode);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();

  await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
  const smsCode = await latestCode(request, phone);
  // The password was chosen at sign-up: activation asks only for the SMS code (docs/decisions/0041).
  await expect(field(page, 'Password')).toHaveCount(0);
  await typeCode(page, 'One-time code', smsCode);
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(page).toHaveURL(/\/auth\?identifier=/);
  // Sign-in opens with the email of the account just activated.
  await expect(field(page, 'Email or phone number')).toHaveValue(email);
}

async function signIn(page: Page, email: string, password = STRONG_PASSWORD) {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await field(page, 'Email or phone number').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

async function openGroup(page: Page, name: string) {
  const group = menu(page).getByRole('button', { name });
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
}

test('a farmer signs up, verifies the email, activates by SMS, signs in, sees the farmer menu and logs out', async ({
  page,
  request,
}) => {
  const username = uniqueName('farmer');
  const email = `${username}@example.com`;
  const phone = ugandanPhone();

  await page.goto('/auth');
  await page.getByRole('link', { name: 'Sign up as a farmer' }).click();
  await expect(page.getByRole('heading', { name: 'Create a farmer account' })).toBeVisible();
  await field(page, 'Email (optional)').fill(email);
  await field(page, 'Username').fill(username);
  await field(page, 'Password').fill(STRONG_PASSWORD);
  await field(page, 'Confirm password').fill(STRONG_PASSWORD);
  await expect(page.getByRole('combobox', { name: 'Country code' })).toHaveValue('UG');
  await field(page, 'Phone number').fill(phone.national);
  await expect(field(page, 'Phone number')).toHaveValue(`${phone.national.slice(0, 4)} ${phone.national.slice(4)}`);
  await field(page, 'Farm location').fill('Mbale');
  await field(page, 'Farm size (acres)').fill('2.5');
  await page.getByRole('checkbox', { name: 'Maize' }).check();
  await page.getByRole('checkbox', { name: 'Beans' }).check();
  await page.getByRole('checkbox', { name: /Kutu keeps my name/ }).check();
  await page.getByRole('button', { name: 'Sign Up' }).click();

  await verifyAndActivate(page, request, email, phone.e164);

  await signIn(page, email);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('topbar-username')).toHaveText(username);
  await openGroup(page, 'Image Analysis');
  await expect(menu(page).getByRole('link', { name: 'Upload Image' })).toBeVisible();
  await openGroup(page, 'Community Posts');
  await expect(menu(page).getByRole('link', { name: 'Make Post' })).toBeVisible();
  await openGroup(page, 'Expert Slots');
  await expect(menu(page).getByRole('link', { name: 'Slots', exact: true })).toBeVisible();
  await expect(menu(page).getByRole('link', { name: 'Create Slot' })).toHaveCount(0);
  await expect(menu(page).getByRole('link', { name: 'Model Training' })).toHaveCount(0);

  // The stored record and the summary show what the flow set.
  await page.goto('/account/profile?tab=summary');
  await expect(page.getByRole('tab', { name: 'Account Summary' })).toHaveAttribute('aria-selected', 'true');
  const account = page.getByRole('table').filter({ hasText: 'Account number' });
  await expect(account.getByRole('row', { name: /Status/ })).toContainText('Active');
  await expect(account.getByRole('row', { name: /Phone/ })).toContainText('Verified');
  await expect(account.getByRole('row', { name: /Website/ })).toContainText('N/A');

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
});

test('an expert signs up and, once active and approved, sees the expert menu', async ({ page, request }) => {
  // The whole sign-up in the UI plus an administrator's sign-in (argon2id) to approve: more than the default.
  test.setTimeout(180_000);
  const username = uniqueName('expert');
  const email = `${username}@example.com`;
  const phone = { national: '', e164: `+2547${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}` };

  await page.goto('/auth');
  await page.getByRole('link', { name: 'Sign up as an expert' }).click();
  await expect(page.getByRole('heading', { name: 'Create an expert account' })).toBeVisible();
  await field(page, 'Email').fill(email);
  await field(page, 'Username').fill(username);
  await field(page, 'Password').fill(STRONG_PASSWORD);
  await field(page, 'Confirm password').fill(STRONG_PASSWORD);
  // A +254 number moves the country selector to Kenya.
  await field(page, 'Phone number').fill(phone.e164);
  await expect(page.getByRole('combobox', { name: 'Country code' })).toHaveValue('KE');
  await field(page, 'Areas of expertise').fill('Maize rusts and bean diseases');
  await field(page, 'Certifications').fill('MSc Plant Pathology');
  await field(page, 'Short bio').fill('Extension officer in Kakamega.\nTen years with smallholder farmers.');
  await expect(field(page, 'Years of experience')).toHaveValue('0');
  await field(page, 'Years of experience').fill('10');
  await field(page, 'Institution').fill('KALRO');
  await field(page, 'Languages spoken').fill('English, Swahili');
  await field(page, 'Social media links').fill('https://example.org/experts/kakamega');
  await page.getByRole('checkbox', { name: /Kutu keeps my name/ }).check();
  await page.getByRole('button', { name: 'Sign Up' }).click();

  await verifyAndActivate(page, request, email, phone.e164);
  // An administrator approves the new expert (e2e/vetting.spec.ts walks the waiting screen and the admin's).
  await approveExpert(request, username);

  await signIn(page, email);
  await expect(page).toHaveURL(/\/account$/);
  await openGroup(page, 'Image Analysis');
  await expect(menu(page).getByRole('link', { name: 'Model Training' })).toBeVisible();
  await expect(menu(page).getByRole('link', { name: 'Upload Image' })).toHaveCount(0);
  await openGroup(page, 'Community Posts');
  await expect(menu(page).getByRole('link', { name: 'All Posts' })).toBeVisible();
  await openGroup(page, 'Expert Slots');
  await expect(menu(page).getByRole('link', { name: 'Create Slot' })).toBeVisible();
  await expect(menu(page).getByRole('link', { name: 'Bookings', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test('a wrong code and a malformed email are explained, and nothing typed is lost', async ({ page, request }) => {
  const username = uniqueName('farmer');
  const email = `${username}@example.com`;
  const phone = ugandanPhone();
  const reg = await request.post('/api/auth/register/farmer/', {
    data: {
      email,
      username,
      password: STRONG_PASSWORD,
      confirm_password: STRONG_PASSWORD,
      phone_number: phone.e164,
      farm_location: 'Gulu',
      consent: { service: true, sms: true, training: false },
      farm_size: 1,
      crop_types: [],
    },
  });
  expect(reg.status(), await reg.text()).toBe(201);
  const { token } = await reg.json();

  await page.goto(`/auth/verify-email?token=${encodeURIComponent(token)}`);
  const code = await latestCode(request, email);
  await typeCode(page, 'Verification code', code === '0000' ? '1111' : '0000');
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText(/^Wrong code\. You have \d tries? left\.$/).first()).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/verify-email/);

  // The emailed link carries the code: opening it verifies straight away.
  const link = await latestLink(request, email, '/auth/verify-email');
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/activation$/);

  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(page.getByText('Type in the OTP')).toBeVisible();
  const smsCode = await latestCode(request, phone.e164);
  await typeCode(page, 'One-time code', smsCode);
  await page.getByRole('button', { name: 'Activate' }).click();
  // Signed up through the API, activated from the emailed link: the server names the account's email.
  await expect(page).toHaveURL(/\/auth\?identifier=/);
  await expect(field(page, 'Email or phone number')).toHaveValue(email);

  // A malformed email at sign-in is said at the field, and what was typed stays.
  await field(page, 'Email or phone number').fill('farmer@kutu');
  await field(page, 'Password').fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('This is a wrong email')).toBeVisible();
  await expect(field(page, 'Email or phone number')).toHaveAttribute('aria-invalid', 'true');
  await expect(field(page, 'Email or phone number')).toHaveValue('farmer@kutu');
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
  // A wrong password gets the server's message under 'Error'.
  await signIn(page, email, 'Not-the-password-1');
  await expect(page.getByText('Wrong email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/auth(\?identifier=[^&]+)?$/);
});

test('a sign-up that lost its token is finished from the sign-in screen with the code already sent', async ({
  page,
  request,
}) => {
  // Signing in during the minute before a new SMS code may be sent: the screen links to the code box, the
  // code sent at verification still works, and no sign-in sends another (nor restarts a wait).
  const username = uniqueName('farmer');
  const email = `${username}@example.com`;
  const phone = ugandanPhone();
  const reg = await request.post('/api/auth/register/farmer/', {
    data: {
      email,
      username,
      password: STRONG_PASSWORD,
      confirm_password: STRONG_PASSWORD,
      phone_number: phone.e164,
      farm_location: 'Lira',
      consent: { service: true, sms: true, training: false },
      farm_size: 2,
      crop_types: ['MAIZE'],
    },
  });
  expect(reg.status(), await reg.text()).toBe(201);
  const { token } = await reg.json();
  const ver = await request.post('/api/auth/verify-email/', {
    data: { token, verificationCode: await latestCode(request, email) },
  });
  expect(ver.status(), await ver.text()).toBe(200);
  const smsCount = async () => {
    const { results } = (await (await request.get('/api/dev/outbox/')).json()) as { results: { to: string }[] };
    return results.filter((m) => m.to === phone.e164).length;
  };
  await expect.poll(smsCount).toBe(1);

  // The token is lost: nothing in this browser knows it.
  await page.goto('/auth');
  await page.evaluate(() => localStorage.clear());
  await page.reload();

  const notice = page.getByRole('alert').filter({ hasText: 'Finish setting up your account' });
  for (let i = 0; i < 2; i++) {
    await signIn(page, email);
    await expect(notice).toContainText(
      'Your account is not activated yet. Enter the code we sent by SMS to your phone.',
    );
    await expect(notice).not.toContainText('wait');
  }
  expect(await smsCount()).toBe(1);
  await notice.getByRole('link', { name: 'Enter the code' }).click();
  await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
  await expect(page.getByText(/token was not saved/)).toHaveCount(0);
  await typeCode(page, 'One-time code', await latestCode(request, phone.e164));
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(page).toHaveURL(/\/auth\?identifier=/);

  await signIn(page, email);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('topbar-username')).toHaveText(username);
});

test('forgot password: the emailed link resets the password, and the old one stops working', async ({
  page,
  request,
}) => {
  const user = await createActiveUser(request, 'farmer');
  const newPassword = 'Kahawa#Mbale2027';

  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
  await field(page, 'Email').fill(user.email);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(/we have sent it a link to reset the password/)).toBeVisible();
  await expect(field(page, 'Email')).toHaveValue('');

  const link = await latestLink(request, user.email, '/auth/confirm-password-reset');
  await page.goto(link);
  await field(page, 'New password').fill('abc123');
  await field(page, 'Confirm password').fill('abc123');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Password is Weak')).toBeVisible();
  await expect(field(page, 'New password')).toHaveValue('');
  await expect(field(page, 'Confirm password')).toHaveValue('');
  await field(page, 'New password').fill(newPassword);
  await field(page, 'Confirm password').fill(`${newPassword}!`);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Password mismatch')).toBeVisible();
  await expect(field(page, 'New password')).toHaveValue('');
  await field(page, 'New password').fill(newPassword);
  await field(page, 'Confirm password').fill(newPassword);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  await signIn(page, user.email, user.password);
  await expect(page.getByText('Wrong email or password')).toBeVisible();
  await signIn(page, user.email, newPassword);
  await expect(page).toHaveURL(/\/account$/);
  // The dashboard has finished loading: a context closed mid-load once held teardown for 90 s.
  await expect(page.getByRole('heading', { name: 'Farmer Dashboard' })).toBeVisible();
});

test('a protected page opened signed out is where the user lands after signing in', async ({ page, request }) => {
  const user = await createActiveUser(request, 'expert');
  await page.goto('/account/profile?tab=password');
  await expect(page).toHaveURL(/\/auth$/);
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/account\/profile\?tab=password$/);
  await expect(page.getByRole('tab', { name: 'Change Password' })).toHaveAttribute('aria-selected', 'true');
});

test('a new user completes the profile and then sees it in the summary', async ({ page, request }) => {
  const user = await createActiveUser(request, 'farmer');
  await page.goto('/auth');
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('topbar-username')).toHaveText(user.username);
  await page.goto('/account/profile');
  // A farmer opens on the summary (district, SMS alerts); these details are optional, after it.
  await expect(page.getByRole('tab', { name: 'Account Summary' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'More details (optional)' }).click();
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await field(page, 'ID number').fill('CM90012345ABCD');
  await field(page, 'Organisation name').fill('Mbale Maize Growers');
  await field(page, 'First name').fill('Nakato');
  await field(page, 'Last name').fill('Achieng');
  await page.locator('label', { hasText: 'Female' }).click();
  await expect(page.getByRole('radio', { name: 'Female' })).toBeChecked();
  await field(page, 'Physical address').fill('Plot 4, Namakwekwe, Mbale');
  await field(page, 'Nationality').fill('Ugandan');
  await page.getByLabel(/^Date of birth/).fill('1990-05-17');
  await field(page, 'Occupation').fill('Farmer');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('tab', { name: 'Account Summary' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'More details (optional)' })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /Full name/ })).toContainText('Nakato Achieng');
  await expect(page.getByRole('row', { name: /Gender/ })).toContainText('Female');
  await expect(page.getByRole('row', { name: /^Name/ })).toContainText('Mbale Maize Growers');

  await page.getByRole('tab', { name: 'Change Password' }).click();
  await field(page, 'Current password').fill(user.password);
  await field(page, 'New password').fill('Kahawa#Mbale2027');
  await field(page, 'Confirm new password').fill('Kahawa#Mbale2027');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Success')).toBeVisible();
  await expect(field(page, 'Current password')).toHaveValue('');
});
