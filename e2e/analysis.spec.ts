import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createActiveUser, leafPhoto, phonePhoto, signInAs } from './support.ts';

test('a farmer analyses a leaf photo, sees the result and opens its education resources', async ({ page, request }) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/addresses/image-analysis');
  await expect(page.getByRole('heading', { name: 'Upload Image' })).toBeVisible();

  // Pressing Process Image without a photo explains what to do.
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(page.getByTestId('upload-error')).toHaveText('Please upload an image to process.');

  await page.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles(leafPhoto);
  await expect(page.getByTestId('upload-preview')).toContainText('maize-common-rust.jpg');
  await page.getByRole('button', { name: 'Process Image' }).click();

  const result = page.getByTestId('analysis-result');
  await expect(result).toBeVisible();
  await expect(page.getByText('Image analysis successfully done')).toBeVisible();
  await expect(result.getByTestId('result-heading')).toHaveText(
    /^(Signs of common rust \(Puccinia sorghi\)|Signs of another leaf disease|Your leaf looks healthy|Not sure: possibly .+)$/,
  );
  await expect(result.getByTestId('result-confidence')).toHaveText(/^\d{1,3}%$/);
  await expect(result.getByRole('link', { name: /Book a Slot/ })).toHaveAttribute('href', '/account/addresses/slots');

  await result.getByRole('link', { name: /education resources?/i }).click();
  await expect(page).toHaveURL(/\/account\/addresses\/education-resources\?analysis=\d+$/);
  await expect(page.getByRole('heading', { name: 'Education Resources' })).toBeVisible();
  const accordion = page.getByTestId('resources-accordion');
  const first = accordion.getByRole('button').first();
  await expect(first).toBeVisible();
  await first.click();
  await expect(accordion.getByRole('link').first()).toHaveAttribute('href', /^https?:\/\//);

  // The same resources open from the menu, for the newest result (read from the server).
  await page.goto('/account/addresses/education-resources');
  await expect(page.getByTestId('resources-for')).toContainText('latest result');
  await expect(page.getByTestId('resources-accordion').getByRole('button').first()).toBeVisible();

  // The history lists it with its photo.
  await page.goto('/account/addresses/analysis-history');
  const item = page.getByTestId('history-item');
  await expect(item).toHaveCount(1);
  await expect(item.getByRole('img')).toBeVisible();
  await item.getByRole('button', { name: 'Open' }).first().click();
  await expect(page.getByRole('dialog').getByTestId('analysis-result')).toBeVisible();
});

test('a large phone photo is shrunk in the browser before upload', async ({ page, request }) => {
  const farmer = await createActiveUser(request, 'farmer');
  const photo = await phonePhoto();
  const originalBytes = fs.statSync(photo).size;
  expect(originalBytes).toBeGreaterThan(1_000_000);
  await signInAs(page, farmer, '/account/addresses/image-analysis');

  const uploads: number[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/api/rust-detection/')) {
      uploads.push(req.postDataBuffer()?.length ?? 0);
    }
  });
  await page.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles(photo);
  await expect(page.getByTestId('upload-sizes')).toContainText(/Original .* · sent .* \(1024×768 px\)/);
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(page.getByTestId('analysis-result')).toBeVisible();
  expect(uploads).toHaveLength(1);
  expect(uploads[0]).toBeLessThan(originalBytes / 4);
});

test('a file that is not a photo is refused with the spec message', async ({ page, request }) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/addresses/image-analysis');
  await page
    .getByTestId('image-dropzone')
    .locator('input[type=file]')
    .setInputFiles({ name: 'notes.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a not really') });
  await expect(page.getByTestId('upload-error')).toHaveText('File type not supported');
});
