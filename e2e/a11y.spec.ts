import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createActiveUser, leafPhoto, signInAs } from './support.ts';

// A farmer's phone (decision 0018): every main page is checked at this size.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
// Each test walks several screens with axe on a shared 2-core machine.
test.setTimeout(240_000);

/** Waits until the screen has its heading and nothing is still loading. */
async function settled(page: Page) {
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.locator('h1')).toBeVisible();
  await expect(page.locator('.mantine-Loader-root:visible')).toHaveCount(0);
}

/**
 * One screen as a phone shows it: axe finds nothing serious or critical, there is one `<h1>` and
 * one `<main>`, and the page never scrolls sideways.
 */
async function checkScreen(page: Page, name: string) {
  await settled(page);
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect.soft(bad, `${name}: axe violations`).toEqual([]);
  await expect.soft(page.locator('main'), `${name}: one <main>`).toHaveCount(1);
  const overflow = await page.evaluate(() => {
    const doc = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth };
  });
  expect.soft(overflow.scrollWidth, `${name}: scrolls sideways`).toBeLessThanOrEqual(overflow.innerWidth);
}

test('sign-in and sign-up pass axe and fit a 390 px phone', async ({ page }) => {
  await page.goto('/auth');
  await checkScreen(page, 'sign-in');
  await page.goto('/auth/signup');
  await checkScreen(page, 'sign-up');
});

test("a farmer's main pages pass axe and fit a 390 px phone", async ({ page, request }) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account');
  await checkScreen(page, 'farmer dashboard');

  await page.goto('/account/addresses/image-analysis');
  await checkScreen(page, 'upload');
  await page.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles(leafPhoto);
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(page.getByTestId('analysis-result')).toBeVisible();
  await checkScreen(page, 'result');

  for (const [name, url] of [
    ['history', '/account/addresses/analysis-history'],
    ['community', '/account/addresses/community-posts'],
    ['consultations', '/account/addresses/slots'],
    ['my bookings', '/account/addresses/my-bookings'],
    ['education resources', '/account/addresses/education-resources'],
    ['profile', '/account/profile'],
  ]) {
    await page.goto(url);
    await checkScreen(page, name);
  }

  // The photo went to a field (made for it): the fields, the field and a stop of its walk (decision 0078).
  await page.goto('/account/fields');
  await checkScreen(page, 'fields');
  await page.getByTestId('field-row').first().getByRole('link').first().click();
  await checkScreen(page, 'field');
  await page.getByTestId('walk-this-field').click();
  await page.getByTestId('walk-start').click();
  await checkScreen(page, 'walk stop');
});

test("an expert's main pages pass axe and fit a 390 px phone", async ({ page, request }) => {
  const expert = await createActiveUser(request, 'expert');
  await signInAs(page, expert, '/account');
  await checkScreen(page, 'expert dashboard');
  for (const [name, url] of [
    ['review queue', '/account/addresses/review-queue'],
    ['training', '/account/addresses/model-training'],
    ['community', '/account/addresses/all-posts'],
    ['create slot', '/account/addresses/availability-slots'],
    ['bookings', '/account/addresses/bookings'],
    ['plant clinic', '/account/addresses/clinic'],
    ['profile', '/account/profile'],
  ]) {
    await page.goto(url);
    await checkScreen(page, name);
  }
});
