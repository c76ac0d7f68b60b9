import { expect, type APIRequestContext, type Page, test } from '@playwright/test';
import { STRONG_PASSWORD, uniqueName } from './support.ts';

// Outbreak watch: a farmer chooses a district at sign-up; the outbreak map says plainly that nothing is confirmed
// yet, and with no signal it still shows from the phone's last copy (the boundaries from the service
// worker, the counts from the saved queries). On a 390 px phone.

test.use({ serviceWorkers: 'allow', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

async function smsCode(request: APIRequestContext, phone: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get('/api/dev/outbox/');
      const { results } = (await res.json()) as { results: { to: string; text: string }[] };
      code = results.find((m) => m.to === phone && /activation code/.test(m.text))?.text.match(/\b(\d{4})\b/)?.[1];
      return code;
    })
    .toBeTruthy();
  return code!;
}

test('a farmer picks a district at sign-up, sees an empty outbreak map, and reads it offline', async ({
  page,
  context,
  request,
}) => {
  // Sign-up, activation, sign-in, the map and a reload offline: longer than one screen's test.
  test.setTimeout(240_000);
  const username = uniqueName('mapfarmer');
  const subscriber = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  const phone = `+25471${subscriber}`;

  await page.goto('/auth/signup');
  await field(page, 'Username').fill(username);
  await field(page, 'Password').fill(STRONG_PASSWORD);
  await field(page, 'Confirm password').fill(STRONG_PASSWORD);
  await field(page, 'Phone number').fill(phone);
  await field(page, 'Farm location').fill('Kibera, near the market');
  await field(page, 'Farm size (acres)').fill('1');
  // The district: Kenya, searched by name, chosen from the list.
  const picker = page.getByTestId('district-picker');
  await picker.getByText('Kenya', { exact: true }).click();
  await picker.getByRole('textbox', { name: 'Search the list' }).fill('nairo');
  await page.getByTestId('district-select').selectOption('KE-30');
  await page.getByRole('checkbox', { name: /Kutu keeps my name/ }).check();
  await page.getByRole('button', { name: 'Sign Up' }).click();

  await expect(page).toHaveURL(/\/auth\/activation\?token=/);
  await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible({ timeout: 60_000 });
  await page.getByLabel('One-time code 1/4').click();
  await page.keyboard.type(await smsCode(request, phone));
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(page).toHaveURL(/\/auth\?identifier=/);
  await field(page, 'Email or phone number').fill(phone);
  await field(page, 'Password').fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/account$/);
  // The district was saved with the account: no question on the dashboard.
  await expect(page.getByTestId('district-prompt')).toHaveCount(0);

  // The map, from the menu.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('link', { name: 'Outbreak map' }).click();
  await expect(page).toHaveURL(/\/account\/addresses\/outbreak-map$/);
  await expect(page.getByRole('heading', { name: 'Outbreak map' })).toBeVisible();
  const map = page.getByTestId('district-map');
  // The farmer's country (Kenya): its 47 counties, unshaded, and the plain empty notice.
  await expect(map.locator('path[data-code]')).toHaveCount(47);
  await expect(map.locator('path[data-level="0"]')).toHaveCount(47);
  await expect(page.getByTestId('map-empty')).toHaveText(
    /No rust cases have been confirmed yet for Maize in Kenya\. The map fills in as experts confirm/,
  );
  // Other specs may have confirmed cases elsewhere by now: the line still says which weeks the map counts.
  await expect(page.getByTestId('map-date')).toContainText(/Cases from .* to /);
  await expect(page.getByTestId('map-attribution')).toContainText('© OpenStreetMap contributors');
  await expect(page.getByTestId('map-demo')).toHaveCount(0);
  // The map fits the phone's width: no sideways scrolling.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The last copy is on the phone: the counts saved, the worker in control with the boundaries precached.
  await page.waitForFunction(() => localStorage.getItem('savedQueries')?.includes('"outbreak"'));
  await page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
  });

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Outbreak map' })).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toHaveText(/^Offline — last updated/);
  await expect(map.locator('path[data-code]')).toHaveCount(47);
  await expect(page.getByTestId('map-empty')).toBeVisible();
  await expect(page.getByTestId('map-error')).toHaveCount(0);
  // Uganda's districts come from the worker's copy too.
  await page.getByTestId('district-map').scrollIntoViewIfNeeded();
  await page.getByText('Uganda', { exact: true }).click();
  await expect(map.locator('path[data-code]')).toHaveCount(112);
  await expect(page.getByTestId('map-attribution')).toContainText('Natural Earth');
  await context.setOffline(false);
});
