import fs from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { createActiveUser, phonePhoto, signInAs, type E2EUser } from './support.ts';

// A farmer's phone (decision 0018).
/** The server's upload limit (IMAGE_MAX_BYTES in the contract). */
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('on a phone the photo comes from the camera or the gallery, and a photo over 5 MB is shrunk and accepted', async ({
  page,
  request,
}) => {
  const farmer = await createActiveUser(request, 'farmer');
  const photo = await phonePhoto({ width: 4000, height: 3000, quality: 98 });
  expect(fs.statSync(photo).size).toBeGreaterThan(IMAGE_MAX_BYTES);
  await signInAs(page, farmer, '/account/addresses/image-analysis');

  // Touch wording and the two ways in; the camera button opens the back camera.
  const picker = page.getByTestId('image-dropzone');
  await expect(picker).toContainText('Photograph one leaf');
  await expect(picker).not.toContainText(/drag|click/i);
  await expect(page.getByRole('button', { name: 'Take a photo' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Choose from gallery' })).toBeVisible();
  const camera = page.getByTestId('image-dropzone-camera');
  await expect(camera).toHaveAttribute('capture', 'environment');
  await expect(camera).toHaveAttribute('accept', 'image/*');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose from gallery' }).click();
  expect((await chooser).isMultiple()).toBe(false);

  const uploads: number[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/api/rust-detection/'))
      uploads.push(req.postDataBuffer()?.length ?? 0);
  });
  await camera.setInputFiles(photo);
  await expect(page.getByTestId('upload-sizes')).toContainText(/Original [\d.]+ MB · sent \d+ KB/);
  await expect(page.getByTestId('upload-error')).toHaveCount(0);
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(page.getByTestId('analysis-result')).toBeVisible();
  expect(uploads).toHaveLength(1);
  expect(uploads[0]).toBeLessThan(IMAGE_MAX_BYTES);
});

test('notices on a phone: one at a time, below the top bar, gone after moving to another screen', async ({
  page,
  request,
}) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/addresses/image-analysis');
  const process = page.getByRole('button', { name: 'Process Image' });
  await process.click();
  await process.click();
  const notices = page.locator('.mantine-Notification-root');
  await expect(notices).toHaveCount(1);
  await expect(notices).toContainText('Please upload an image to process.');
  const shownAt = Date.now();
  const box = await notices.boundingBox();
  const header = await page.locator('header').boundingBox();
  expect(box!.y).toBeGreaterThan(header!.y + header!.height);
  expect(box!.y + box!.height).toBeLessThanOrEqual(844);

  // Moving through the menu (no page load) takes the old screen's error away.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'My Analyses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Analyses' })).toBeVisible();
  await expect(notices).toHaveCount(0, { timeout: 1_000 });
  // Gone because of the move, not because its 4 seconds ran out.
  expect(Date.now() - shownAt).toBeLessThan(4_000);
});

test("the phone's menu is built when first opened, and no key reaches it while it is closed", async ({
  page,
  request,
}) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const drawer = page.locator('nav[aria-label="Main menu"]');
  // Closed as the screen starts: nothing built, nothing to tab into.
  await expect(drawer.locator('a, button')).toHaveCount(0);

  const burger = page.getByRole('button', { name: 'Open menu' });
  await burger.click();
  await expect(drawer).not.toHaveAttribute('inert');
  await expect(drawer.getByRole('link', { name: 'Profile' })).toBeVisible();

  // Closed again: still built, but inert, so Tab goes through the screen and never into the drawer.
  await burger.click();
  await expect(drawer).toHaveAttribute('inert', '');
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('nav')))).toBe(false);
  }
});

async function publishSlot(request: APIRequestContext, expert: E2EUser, daysAhead: number) {
  const login = await request.post('/api/auth/login/', { data: { email: expert.email, password: expert.password } });
  const { access } = await login.json();
  const start = new Date(Date.now() + daysAhead * 86_400_000);
  start.setUTCHours(6, 0, 0, 0);
  const res = await request.post('/api/consultations/availability-slots/', {
    headers: { authorization: `Bearer ${access}` },
    data: { start_time: start.toISOString(), end_time: new Date(start.getTime() + 2 * 3_600_000).toISOString() },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

test("on a phone a table's rows are cards: every action on screen, no status cut short", async ({ page, request }) => {
  const expert = await createActiveUser(request, 'expert');
  await publishSlot(request, expert, 3);
  await publishSlot(request, expert, 4);
  await signInAs(page, expert, '/account/addresses/availability-slots');
  const cards = page.getByTestId('data-card');
  await expect(cards).toHaveCount(2);
  for (const card of await cards.all()) {
    await expect(card).toContainText('Not Booked');
    const action = card.getByRole('button', { name: 'Deactivate' });
    await expect(action).toBeVisible();
    const box = await action.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  }
  const cut = await page
    .locator('.mantine-Badge-label')
    .evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent));
  expect(cut).toEqual([]);
  const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
});
