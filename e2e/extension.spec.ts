import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN } from './admin.ts';
import { latestCode, STRONG_PASSWORD, uniqueName } from './support.ts';

// Extension officers on a phone: an officer applies for a district, an administrator approves, and the
// officer opens the district's week, in English, Kiswahili and Luganda, with nothing wider than the screen.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
test.setTimeout(240_000);

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

async function typeCode(page: Page, label: string, code: string) {
  await page.getByLabel(`${label} 1/4`).click();
  await page.keyboard.type(code);
}

async function signIn(page: Page, email: string, password: string) {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await field(page, 'Email or phone number').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function fitsThePhone(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

async function applyAsOfficer(page: Page, request: APIRequestContext, username: string) {
  const email = `${username}@example.com`;
  const phone = `+2567${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Apply as an extension officer' }).click();
  await expect(page.getByRole('heading', { name: 'Apply as an extension officer' })).toBeVisible();
  await fitsThePhone(page);
  await field(page, 'Email (optional)').fill(email);
  await field(page, 'Username').fill(username);
  await field(page, 'Password').fill(STRONG_PASSWORD);
  await field(page, 'Confirm password').fill(STRONG_PASSWORD);
  await field(page, 'Phone number').fill(phone);
  await field(page, 'Office').fill('Kumi District Agricultural Office');
  const districts = page.getByRole('combobox', { name: 'Your districts or counties' });
  await districts.click();
  await districts.fill('Kumi');
  // One CI run waited 4 minutes for this option to be visible and stable at 390 px (not seen in 8 quiet
  // runs nor at 20 times CPU throttling): each try now brings the field back into view and taps again.
  const kumi = page.getByRole('option', { name: 'Kumi', exact: true });
  await expect(async () => {
    if ((await kumi.getAttribute('aria-selected')) !== 'true') {
      await districts.scrollIntoViewIfNeeded();
      await kumi.click({ timeout: 10_000 });
    }
    await expect(kumi).toHaveAttribute('aria-selected', 'true', { timeout: 2_000 });
  }).toPass({ timeout: 90_000 });
  // An officer's own consents: what the account keeps, and SMS (the Monday summary without email).
  await expect(page.getByRole('checkbox', { name: /train Kutu's model/ })).toHaveCount(0);
  await page.getByRole('checkbox', { name: /office and districts/ }).check();
  await page.getByRole('checkbox', { name: /Monday summary/ }).check();
  await page.getByRole('button', { name: 'Sign Up' }).click();

  await expect(page).toHaveURL(/\/auth\/verify-email\?token=/);
  await typeCode(page, 'Verification code', await latestCode(request, email));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
  await typeCode(page, 'One-time code', await latestCode(request, phone));
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(page).toHaveURL(/\/auth\?identifier=/);
  return email;
}

test('an officer applies for Kumi, waits, is approved by an administrator and opens the week', async ({
  page,
  browser,
  request,
}) => {
  const username = uniqueName('officer');
  const email = await applyAsOfficer(page, request, username);

  await signIn(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/account\/extension$/);
  await expect(page.getByText('Your extension officer account is waiting for approval')).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const waiting = await request.get('/api/extension/districts/UG-208/week/', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(waiting.status()).toBe(403);
  expect((await waiting.json()).error.code).toBe('OFFICER_PENDING');

  const adminContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const admin = await adminContext.newPage();
  await admin.goto('/auth');
  await signIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(admin).toHaveURL(/\/account\/admin$/);
  await admin.getByText('Extension officers', { exact: true }).click();
  await expect(admin.getByRole('heading', { name: 'Extension officer applications' })).toBeVisible();
  const card = admin.getByRole('article', { name: username });
  await expect(card).toContainText('Kumi');
  await expect(card).toContainText('Kumi District Agricultural Office');
  await fitsThePhone(admin);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card).toContainText('Approved');
  await adminContext.close();

  await page.reload();
  await expect(page.getByRole('heading', { name: /^Kumi, week \d{4}-W\d{2}$/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Confirmed rust cases' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Farmers to call or visit' })).toBeVisible();
  await fitsThePhone(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  expect((await download).suggestedFilename()).toMatch(/^kutu-UG-208-\d{4}-\d{2}-\d{2}\.csv$/);
  // Another district's week is refused by the server.
  const other = await request.get('/api/extension/districts/UG-102/week/', {
    headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('accessToken'))}` },
  });
  expect(other.status()).toBe(403);
  // The outbreak map, from the menu: the published counts, Kumi among the districts (it once answered 403
  // and the page said "check your connection").
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Outbreak map' }).click();
  await expect(page.getByTestId('district-map')).toBeVisible();
  await expect(page.getByTestId('map-error')).toHaveCount(0);
  await fitsThePhone(page);
  await page.goto('/account/extension');

  // In Kiswahili and Luganda too, nothing wider than the phone.
  for (const [language, title] of [
    ['sw', /^Kumi, wiki \d{4}-W\d{2}$/],
    ['lg', /^Kumi, wiiki \d{4}-W\d{2}$/],
  ] as const) {
    await page.getByTestId('language-switch').first().selectOption(language);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await fitsThePhone(page);
  }

  // The officer leaves the office: the administrator withdraws the approval, and the open session ends.
  const officerToken = await page.evaluate(() => localStorage.getItem('accessToken'));
  const againContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const adminAgain = await againContext.newPage();
  await adminAgain.goto('/auth');
  await signIn(adminAgain, E2E_ADMIN.email, E2E_ADMIN.password);
  await adminAgain.getByText('Extension officers', { exact: true }).click();
  const approved = adminAgain.getByRole('article', { name: username });
  await approved.getByRole('button', { name: 'Withdraw approval' }).click();
  const dialog = adminAgain.getByRole('dialog', { name: "Withdraw this officer's approval" });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Moved to the Soroti office');
  await fitsThePhone(adminAgain);
  await dialog.getByRole('button', { name: 'Withdraw approval' }).click();
  await expect(approved).toContainText('Refused');
  await againContext.close();
  const gone = await request.get('/api/extension/districts/UG-208/week/', {
    headers: { authorization: `Bearer ${officerToken}` },
  });
  expect(gone.status()).toBe(401);
  // The open page may already be leaving for sign-in on its own (its live stream ended with the session):
  // a reload that meets that navigation is aborted, so it is tried again until the page rests on sign-in.
  await expect(async () => {
    await page.reload();
    await expect(page).toHaveURL(/\/auth/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
});
