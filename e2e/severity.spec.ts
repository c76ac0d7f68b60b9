import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createActiveUser, signInAs } from './support.ts';

// Severity on a farmer's phone (docs/decisions/0045).
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

// A bean leaf told apart from what is around it: measured at the served leaf cut (decision 0081).
const beanRust = path.resolve(import.meta.dirname, '../apps/server/test/fixtures/bean-rust-clear.jpg');

test('a rust answer shows how much of the leaf has rust and circles the spots, as an estimate with its advice, within a 390 px phone', async ({
  page,
  request,
}, testInfo) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/addresses/image-analysis');
  await page.getByTestId('image-dropzone-camera').setInputFiles(beanRust);
  await page.getByRole('button', { name: 'Process Image' }).click();
  const card = page.getByTestId('result-severity');
  await expect(card).toBeVisible();
  // The served model calls this photo rust. Read on the leaf alone, away from its edge (decision 0081), its share
  // is moderate.
  await expect(card.getByTestId('severity-badge')).toHaveText('Moderate');
  await expect(card.getByTestId('severity-band')).toContainText(/Some rust: spots cover about \d+\s?% of this leaf\./);
  await expect(card.getByTestId('severity-advice')).toContainText('Whether spraying pays');
  await expect(card.getByTestId('severity-estimate')).toContainText('An estimate');
  // The spots that share counted, circled on the farmer's photo, with a line saying what they are (0054).
  const spots = page.getByTestId('rust-spots');
  await expect(spots).toBeVisible();
  expect(await spots.locator('g').last().locator('ellipse').count()).toBeGreaterThan(3);
  await expect(page.getByTestId('rust-spots-line')).toHaveText(
    /^Circled: spots with rust’s colour, \d+\s?% of the leaf — an estimate$/,
  );
  // The rings lie exactly over the photo (read in one frame, the page may still be moving).
  const offset = await spots.evaluate((svg) => {
    const photo = svg.parentElement?.querySelector('img')?.getBoundingClientRect();
    const rings = svg.getBoundingClientRect();
    return photo
      ? [rings.x - photo.x, rings.y - photo.y, rings.width - photo.width, rings.height - photo.height]
      : null;
  });
  expect(offset).toEqual([0, 0, 0, 0]);
  await card.scrollIntoViewIfNeeded();
  await testInfo.attach('severity-390px.png', { body: await page.screenshot(), contentType: 'image/png' });
  const widest = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(widest).toBeLessThanOrEqual(390);
});
