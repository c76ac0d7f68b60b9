import path from 'node:path';
import { expect, test } from '@playwright/test';
import lg from '../apps/web/src/lib/locales/lg.json' with { type: 'json' };
import sw from '../apps/web/src/lib/locales/sw.json' with { type: 'json' };
import { createActiveUser, signInAs, signInWithLanguage } from './support.ts';

// Severity on a farmer's phone (docs/decisions/0045).
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

// A bean leaf told apart from what is around it: measured at the served leaf cut (decision 0081).
const beanRust = path.resolve(import.meta.dirname, '../apps/server/test/fixtures/bean-rust-clear.jpg');

test('a rust answer shows how much of the leaf has rust and circles the spots, as an estimate that asks for a walk, within a 390 px phone', async ({
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
  // What to do rests on a walk of the field, not on one leaf's share (decision 0078).
  await expect(card.getByTestId('severity-advice')).toHaveCount(0);
  await expect(page.getByTestId('walk-ask')).toContainText('Walk your field to know how much of it has rust');
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

// iBean bean_rust__0007: the served model is sure it is bean rust (about 96 %), but its pale pustules are not
// rust-coloured enough for the share to read them (0 %). A confident rust answer never sits beside "0 %" (decision 0120).
const paleBeanRust = path.resolve(
  import.meta.dirname,
  '../datasets/rust3/common_rust/ibean__bean__bean_rust__0007.jpg',
);
const catalogues = { en: null, sw, lg } as const;

for (const language of ['en', 'sw', 'lg'] as const) {
  test(`a sure bean rust answer whose spots cannot be read says the share could not be measured, with no rings and no "0 %", on a 390 px phone in ${language}`, async ({
    page,
    request,
  }, testInfo) => {
    const farmer = await createActiveUser(request, 'farmer');
    await signInWithLanguage(page, request, farmer, language);
    await page.goto('/account/addresses/image-analysis');
    const texts = catalogues[language];
    await page
      .getByTestId('crop-choice')
      .getByText(texts ? texts.review.crop.beans : 'Beans', { exact: true })
      .click();
    await page.getByTestId('image-dropzone-camera').setInputFiles(paleBeanRust);
    await page.getByRole('button', { name: texts ? texts.analysis.upload.process : 'Process Image' }).click();
    const note = page.getByTestId('result-severity-unmeasured');
    await expect(note).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('result-confidence')).toHaveText(/^\d{1,3}\s?%$/);
    const unmeasured = texts
      ? texts.analysis.result.severity.unmeasured
      : 'Kutu could not measure how much of this leaf has rust: in this photo it could not tell the leaf or its spots clearly apart.';
    await expect(note.getByTestId('severity-unmeasured')).toHaveText(unmeasured);
    await expect(note).not.toContainText('%');
    await expect(page.getByTestId('result-severity')).toHaveCount(0);
    await expect(page.getByTestId('rust-spots')).toHaveCount(0);
    await expect(page.getByTestId('rust-spots-line')).toHaveCount(0);
    await note.scrollIntoViewIfNeeded();
    await testInfo.attach(`unmeasured-390px-${language}.png`, {
      body: await page.screenshot(),
      contentType: 'image/png',
    });
    const widest = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(widest).toBeLessThanOrEqual(390);
  });
}
