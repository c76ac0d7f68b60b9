import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createActiveUser, signInAs } from './support.ts';

const leafPhoto = path.join(import.meta.dirname, '../apps/server/test/fixtures/maize-common-rust.jpg');

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone a result reads right: heading in words, 3-5 steps for the crop, See more, the photo, no unread notice', async ({
  page,
  request,
}) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/addresses/image-analysis');
  await page.getByTestId('crop-choice').getByRole('radio', { name: 'Maize' }).check();
  await page.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles(leafPhoto);
  await page.getByRole('button', { name: 'Process Image' }).click();
  const result = page.getByTestId('analysis-result');
  await expect(result.getByTestId('result-heading')).toHaveText(
    /^(Signs of common rust \(Puccinia sorghi\)|Signs of another leaf disease|Your leaf looks healthy|Not sure: possibly .+|No leaf found in this photo)$/,
  );
  await expect(result.getByTestId('result-heading')).not.toHaveText(/Disease detected/);
  const steps = result.getByTestId('advice-steps').getByRole('listitem');
  const count = await steps.count();
  expect(count).toBeGreaterThanOrEqual(3);
  expect(count).toBeLessThanOrEqual(5);
  await expect(result.getByTestId('advice-headline')).toBeVisible();
  // Nothing wider than the phone.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await expect(page.getByRole('img', { name: 'The analysed photo' })).toBeVisible();
  await result.getByRole('button', { name: 'See more' }).click();
  await expect(result.getByTestId('advice-more')).toBeVisible();
  await expect(result.getByTestId('advice-more').getByRole('link').first()).toHaveAttribute('href', /^https?:\/\//);
  // The farmer is looking at the result: its notification is not counted as unread.
  await expect
    .poll(async () => {
      const token = await page.evaluate(() => localStorage.getItem('accessToken'));
      const res = await page.request.get('/api/notifications/?unread=true', {
        headers: { authorization: `Bearer ${token}` },
      });
      return (await res.json()).results.filter((n: { type: string }) => n.type === 'image_analysis').length;
    })
    .toBe(0);
});

test('the post form speaks plain words on a phone, behind "Ask the community"', async ({ page, request }) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/addresses/community-posts');
  await page.getByRole('button', { name: 'Ask the community' }).click();
  const form = page.getByRole('form', { name: 'Add a Post' });
  await form.getByLabel('Title').fill('x'.repeat(160));
  await expect(form.getByText('160 of 150 characters')).toBeVisible();
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Title must be at most 150 characters')).toBeVisible();
  await expect(form.getByText('Choose the crop: Maize, Wheat, Rice or Beans')).toBeVisible();
  await expect(form.getByText('Choose how urgent it is: Low, Medium or High')).toBeVisible();
  await expect(form.getByText(/MAIZE|common_rust/)).toHaveCount(0);
  // The title was not cut.
  await expect(form.getByLabel('Title')).toHaveValue('x'.repeat(160));
});

test('an expired session returns to Sign in with a word, then to the page the user was on', async ({
  page,
  request,
}) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/profile');
  await expect(page.getByTestId('topbar-username')).toHaveText(farmer.username);
  // Both tokens stop working (as after the refresh token expired), set from a same-origin file rather
  // than the open profile page, whose own requests would end the session there first.
  await page.goto('/favicon.svg');
  await page.evaluate(() => {
    localStorage.setItem('accessToken', 'expired');
    localStorage.setItem('refreshToken', 'expired');
  });
  // The app leaves the page for Sign in by itself (a full navigation), possibly before this one's load
  // event: wait only for the navigation to start.
  await page.goto('/account/addresses/analysis-history', { waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/auth\?expired=1$/);
  await expect(page.getByTestId('session-expired')).toHaveText('Your session ended, please sign in again');
  await page.getByRole('textbox', { name: 'Email or phone number' }).fill(farmer.email);
  await page.locator('input[type="password"]').first().fill(farmer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/account\/addresses\/analysis-history$/);
});
