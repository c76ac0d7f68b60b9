import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { createActiveUser, signInAs } from './support.ts';

// A farmer's phone: a rust leaf is never outvoted, and one leaf counts once (decisions 0061-rust-on-any-leaf,
// 0062-one-leaf-counts-once).
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const fixture = (name: string) => path.resolve(import.meta.dirname, '../apps/server/test/fixtures', name);
const dataset = (name: string) => path.resolve(import.meta.dirname, '../datasets/rust3', name);
const fitsThePhone = async (page: Page) =>
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);

test('a field of one rust leaf and two healthy ones says rust was seen on 1 of 3 leaves, with the rust advice', async ({
  page,
  request,
}) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/addresses/image-analysis');
  await page.getByTestId('crop-choice').getByText('Maize').click();
  const camera = page.getByTestId('image-dropzone-camera');
  // Rust 0.95, healthy 0.97 and 0.96: the leaves' sum alone said a sure "healthy" (0.92).
  for (const file of [
    fixture('maize-common-rust.jpg'),
    dataset('healthy/plantvillage__maize__healthy__0009.jpg'),
    dataset('healthy/plantvillage__maize__healthy__0002.jpg'),
  ]) {
    await camera.setInputFiles(file);
    await expect(page.getByRole('button', { name: 'Process Image' })).toBeEnabled();
  }
  await expect(page.getByTestId('upload-preview')).toHaveCount(3);
  await page.getByRole('button', { name: 'Process Image' }).click();

  await expect(page.getByTestId('field-photos')).toContainText('Answer for your field from 3 photos');
  await expect(page.getByTestId('result-heading')).toHaveText('Common rust (Puccinia sorghi) seen on 1 of 3 leaves');
  await expect(page.getByText('walk the field and look for the same spots on other plants')).toBeVisible();
  // The rust advice (walk the field, count the plants with rust), not "healthy" nor the expert's wait.
  await expect(page.getByText('Rust on maize: check how far it has spread before you spend money.')).toBeVisible();
  await expect(page.getByText('Your leaf looks healthy')).toHaveCount(0);
  await expect(page.getByTestId('result-expert-wait')).toHaveCount(0);
  await fitsThePhone(page);
});

test('the same leaf again is refused with a request for a leaf from another plant; the answer keeps its photos', async ({
  page,
  request,
}) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/addresses/image-analysis');
  await page.getByTestId('crop-choice').getByText('Beans').click();
  const camera = page.getByTestId('image-dropzone-camera');

  // On the upload screen (online or not): the second pick of one photo is refused on the phone.
  await camera.setInputFiles(fixture('bean-rust.jpg'));
  await expect(page.getByRole('button', { name: 'Process Image' })).toBeEnabled();
  await camera.setInputFiles(fixture('bean-rust.jpg'));
  await expect(page.getByText(/Leaf 2 looks like leaf 1 again/).first()).toBeVisible();
  await expect(page.getByTestId('upload-preview')).toHaveCount(1);
  await fitsThePhone(page);
  await page.getByRole('button', { name: 'Process Image' }).click();

  // Under the answer: the server refuses the same leaf, and nothing is added.
  const more = page.getByTestId('more-photos');
  await expect(more).toBeVisible();
  await page.getByTestId('more-photos-picker-camera').setInputFiles(fixture('bean-rust.jpg'));
  await expect(
    page.getByText(/One leaf counts once: take a photo of a leaf from another plant of the same field/).first(),
  ).toBeVisible();
  await expect(page.getByTestId('field-photos')).toHaveCount(0);
  await expect(more.getByText('You can add 2 more photos.')).toBeVisible();
  await fitsThePhone(page);

  await page.goto('/account/addresses/analysis-history');
  await expect(page.getByTestId('history-item')).toHaveCount(1);
  await expect(page.getByTestId('photo-count')).toHaveCount(0);
});
