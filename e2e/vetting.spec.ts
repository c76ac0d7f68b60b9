import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN } from './admin.ts';
import { latestCode, STRONG_PASSWORD, uniqueName } from './support.ts';

// Expert vetting (docs/decisions/0027), on a phone: a new expert waits for an administrator, who was
// made with the real `npm run admin:create` command before the server started (playwright.config.ts).
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
test.setTimeout(240_000);

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });
const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

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

async function signUpExpert(page: Page, request: APIRequestContext, username: string) {
  const email = `${username}@example.com`;
  const phone = `+2547${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Sign up as an expert' }).click();
  await expect(page.getByRole('heading', { name: 'Create an expert account' })).toBeVisible();
  await field(page, 'Email').fill(email);
  await field(page, 'Username').fill(username);
  await field(page, 'Password').fill(STRONG_PASSWORD);
  await field(page, 'Confirm password').fill(STRONG_PASSWORD);
  await field(page, 'Phone number').fill(phone);
  await field(page, 'Areas of expertise').fill('Wheat and maize rusts');
  await field(page, 'Certifications').fill('PhD Plant Pathology');
  await field(page, 'Institution').fill('Makerere University');
  await page.getByRole('checkbox', { name: /Kutu keeps my name/ }).check();
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

test('a new expert waits on a screen that says so until an administrator approves, then reaches the review queue', async ({
  page,
  browser,
  request,
}) => {
  const username = uniqueName('vetexpert');
  const email = await signUpExpert(page, request, username);

  // The expert signs in and sees what the account waits for, and nothing of an expert's screens.
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Your expert account is waiting for approval' })).toBeVisible();
  await expect(page.getByText('An administrator is checking your expert details.')).toBeVisible();
  await fitsThePhone(page);
  await page.goto('/account/addresses/review-queue');
  await expect(page.getByRole('heading', { name: 'Your expert account is waiting for approval' })).toBeVisible();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(menu(page).getByRole('button', { name: 'Image Analysis' })).toHaveCount(0);
  await expect(menu(page).getByRole('link', { name: 'Profile' })).toBeVisible();
  await page.getByRole('button', { name: 'Open menu' }).click();
  // The server says the same, whatever the screen shows.
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const refused = await request.get('/api/expert-reviews/queue/', { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe('EXPERT_PENDING');

  // The administrator, on another phone, approves the application.
  const adminContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const admin = await adminContext.newPage();
  await admin.goto('/auth');
  await signIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(admin).toHaveURL(/\/account\/admin$/);
  // The page says what it holds: applications, and the failed messages, backups and erased accounts below.
  await expect(admin.getByRole('heading', { name: 'Administration', level: 1 })).toBeVisible();
  await expect(admin.getByRole('heading', { name: 'Expert applications' })).toBeVisible();
  const card = admin.getByRole('article', { name: username });
  await expect(card).toContainText('Waiting');
  await expect(card).toContainText('Wheat and maize rusts');
  await fitsThePhone(admin);
  // The same screen says how the installation's backups stand.
  const backups = admin.getByRole('article', { name: 'Backups' });
  await expect(backups).toContainText(/No backup has been taken yet\.|Last backup: /);
  await expect(backups).toContainText(/A backup is taken every \d+ hours?; the last \d+ are kept\./);
  // And which accounts were erased, without who.
  const erased = admin.getByRole('region', { name: 'Accounts erased' });
  await expect(erased).toContainText(/No account has been erased\.|erased|kept/);
  await fitsThePhone(admin);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card).toContainText('Approved');
  await adminContext.close();

  // The expert asks again and is in: the review queue opens.
  await page.getByRole('button', { name: 'Check again' }).click();
  await expect(page.getByRole('heading', { name: 'Expert Review' })).toBeVisible();
  await page.goto('/account/addresses/review-queue');
  await expect(page.getByRole('heading', { name: 'Expert Review' })).toBeVisible();
  await fitsThePhone(page);
});
