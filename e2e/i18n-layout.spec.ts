import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { createActiveUser, signInAs } from './support.ts';

/**
 * Layout with longer text: Kiswahili and Luganda run longer than English. The pseudo-locale
 * (apps/web/src/lib/pseudo.ts: accented, about 40 % longer English, asked for by storage) must fit a
 * 390 px phone on the screens a farmer sees first, with no sideways scrolling.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('language', 'pseudo'));
});

async function checkScreen(page: Page, testInfo: TestInfo, name: string) {
  // Pseudo text is bracketed and accented: "[Šííĝñ íín]".
  await expect(page.locator('h1').first()).toHaveText(/^\[.*[áéíóú].*\]$/);
  await page.evaluate(() => document.fonts.ready);
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    widest: [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 120)),
  }));
  await testInfo.attach(`${name}-390px-pseudo.png`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: 'image/png',
  });
  expect(widths.scroll, `wider than the phone: ${widths.widest.join(', ')}`).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-XA');
}

test('sign-in and sign-up fit a 390 px phone in the pseudo-locale', async ({ page }, testInfo) => {
  await page.goto('/auth');
  await checkScreen(page, testInfo, 'sign-in');
  await page.goto('/auth/signup');
  await checkScreen(page, testInfo, 'sign-up');
});

test("a farmer's dashboard and upload page fit a 390 px phone in the pseudo-locale", async ({
  page,
  request,
}, testInfo) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account');
  await expect(page.getByTestId('topbar-username')).toHaveText(farmer.username);
  await checkScreen(page, testInfo, 'dashboard');
  await page.goto('/account/addresses/image-analysis');
  await checkScreen(page, testInfo, 'upload');
});
