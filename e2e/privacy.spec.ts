import { gunzipSync } from 'node:zlib';
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { unpackTar } from 'modern-tar';
import { createActiveUser, leafPhoto, signInAs } from './support.ts';

// My data (docs/privacy.md) on a phone-sized screen: a farmer downloads everything Kutu holds, deletes
// the account with the password, and cannot sign in afterwards.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
test.setTimeout(180_000);

async function fitsThePhone(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test('a farmer downloads their data, deletes the account, and cannot sign in again', async ({ page, request }) => {
  const farmer = await createActiveUser(request, 'farmer');
  // One photo analysed, so the archive holds a photo.
  const login = await request.post('/api/auth/login/', { data: { email: farmer.email, password: farmer.password } });
  const { access } = await login.json();
  const analysed = await request.post('/api/rust-detection/', {
    headers: { authorization: `Bearer ${access}` },
    multipart: { image: { name: 'leaf.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(leafPhoto) } },
  });
  expect(analysed.status(), await analysed.text()).toBe(201);

  await signInAs(page, farmer, '/account/profile?tab=data');
  await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();
  await fitsThePhone(page);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^kutu-my-data-\d{4}-\d\d-\d\d\.tar\.gz$/);
  const entries = await unpackTar(gunzipSync(fs.readFileSync((await file.path()) as string)));
  const names = entries.map((e) => e.header.name);
  expect(names).toContain('kutu-my-data/profile.json');
  expect(names.some((n) => n.startsWith('kutu-my-data/photos/') && n.endsWith('.jpg'))).toBe(true);
  const profile = JSON.parse(
    Buffer.from(entries.find((e) => e.header.name.endsWith('profile.json'))!.data!).toString(),
  );
  expect(profile.account).toMatchObject({ username: farmer.username, phone: farmer.phone });

  await page.getByRole('switch', { name: /train Kutu's model/ }).click();
  await expect(page.getByText('Your choice is saved.')).toBeVisible();

  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account for good?' });
  await expect(dialog).toBeVisible();
  await fitsThePhone(page);
  await dialog.getByLabel(/Your password/).fill(farmer.password);
  await dialog.getByRole('button', { name: 'Delete for good' }).click();
  await expect(page.getByText('Your account and your data are deleted.')).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);

  // Signing in again is refused, the same as for a wrong password.
  await page.getByRole('textbox', { name: /Email or phone number/ }).fill(farmer.email);
  await page.getByLabel(/^Password/).fill(farmer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Wrong email or password').first()).toBeVisible();
  const again = await request.post('/api/auth/login/', { data: { email: farmer.email, password: farmer.password } });
  expect(again.status()).toBe(401);

  // The next account on this phone opens its own dashboard, not the deleted account's profile tab.
  const next = await createActiveUser(request, 'farmer');
  await page.getByRole('textbox', { name: /Email or phone number/ }).fill(next.email);
  await page.getByLabel(/^Password/).fill(next.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/account$/);
});
