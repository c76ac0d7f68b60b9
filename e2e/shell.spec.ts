import { expect, test } from '@playwright/test';

test('the root sends signed-out visitors to sign in, and remembers where they wanted to go', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/account/profile?tab=summary');
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => localStorage.getItem('returnTo'))).toBe('/account/profile?tab=summary');
});

test('unknown pages say so', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});
