import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { createActiveUser, signInAs } from './support.ts';

// A farmer's phone: a new photo of the same crop is a new diagnosis unless the farmer says it checks a
// treated field again (docs/decisions/0044 and its amendment). Said here by the choice on the photo screen.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const fixture = (name: string) => path.resolve(import.meta.dirname, '../apps/server/test/fixtures', name);

/** Sends a leaf photo from the photo screen; returns the new analysis's id and the diagnosis it followed up. */
async function analyse(page: Page, file: string): Promise<{ id: number; followedUp: number | null }> {
  await page.getByTestId('image-dropzone').locator('input[type=file]').first().setInputFiles(fixture(file));
  const sent = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/rust-detection/',
  );
  await page.getByRole('button', { name: 'Process Image' }).click();
  const res = await sent;
  expect(res.status()).toBe(201);
  const result = (await res.json()) as { id: number; follow_up: { of: number } | null };
  return { id: result.id, followedUp: result.follow_up?.of ?? null };
}

const fitsThePhone = async (page: Page) =>
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);

test('a second photo of the same crop is a new diagnosis; a photo the farmer says checks the field is a follow-up', async ({
  page,
  request,
}) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, '/account/addresses/image-analysis');
  // Nothing to follow up yet: no choice is offered.
  await expect(page.getByTestId('image-dropzone')).toBeVisible();
  await expect(page.getByTestId('follow-up-choice')).toHaveCount(0);
  await page.getByTestId('crop-choice').getByText('Maize').click();
  // The committed model reads this maize leaf as rust 0.95: advice to treat, and a reminder.
  const first = await analyse(page, 'maize-common-rust.jpg');
  await expect(page.getByTestId('follow-up-reminder')).toContainText('Kutu will remind you on');

  // Seconds later, another maize photo sent without saying anything: a new diagnosis, compared with nothing.
  const second = await analyse(page, 'maize-healthy.jpg');
  expect(second.followedUp).toBeNull();
  await expect(page.getByTestId('analysis-result')).toBeVisible();
  await expect(page.getByTestId('follow-up')).toHaveCount(0);
  await fitsThePhone(page);

  // The first diagnosis keeps its reminder: its result still says when Kutu will remind.
  await page.goto(`/account/addresses/analysis-history?analysis=${first.id}`);
  await expect(page.getByTestId('follow-up-reminder').first()).toContainText('Kutu will remind you on');

  // Back on the photo screen the farmer says this photo checks that field again.
  await page.goto('/account/addresses/image-analysis');
  const choice = page.getByTestId('follow-up-choice');
  await expect(choice).toContainText('Is this photo a check of a field Kutu advised you to treat?');
  await expect(page.getByTestId(`follow-up-choose-${second.id}`)).toHaveCount(0);
  await fitsThePhone(page);
  await page.getByTestId(`follow-up-choose-${first.id}`).click();
  await expect(page.getByTestId('follow-up-banner')).toContainText(
    'This photo checks your field again after the diagnosis of',
  );
  const third = await analyse(page, 'maize-healthy.jpg');
  expect(third.followedUp).toBe(first.id);
  await expect(page.getByTestId('follow-up')).toContainText('Better: no rust seen now');
  await expect(page.getByTestId('follow-up-banner')).toHaveCount(0);
  await fitsThePhone(page);
  // Followed up: it is no longer offered.
  await page.reload();
  await expect(page.getByTestId('image-dropzone')).toBeVisible();
  await expect(page.getByTestId('follow-up-choice')).toHaveCount(0);
});
