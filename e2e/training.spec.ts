import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createActiveUser, signInAs } from './support.ts';

const MODEL_TRAINING = '/account/addresses/model-training';
const HEALTHY = path.resolve(import.meta.dirname, '../datasets/rust3/healthy');

test('an expert submits a labelled leaf photo and sees the healthy count grow', async ({ page, request }) => {
  const expert = await createActiveUser(request, 'expert');
  const photo = path.join(
    HEALTHY,
    fs
      .readdirSync(HEALTHY)
      .filter((f) => f.endsWith('.jpg'))
      .sort()[0],
  );

  await signInAs(page, expert, MODEL_TRAINING);
  const labelInput = page.getByRole('combobox', { name: 'Label', exact: true });
  const healthyCount = page.getByTestId('count-healthy');
  await expect(healthyCount).not.toContainText('–');
  const before = Number((await healthyCount.locator('p').last().textContent()) ?? '0');

  // Submitting without a photo or a label says what is missing.
  await page.getByRole('button', { name: 'Submit for Training' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Please upload a valid image for training.' }).first(),
  ).toBeVisible();

  await page.locator('input[type=file]').setInputFiles(photo);
  await expect(page.getByText(path.basename(photo))).toBeVisible();
  await page.getByRole('button', { name: 'Submit for Training' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Please select a label for training.' }).first(),
  ).toBeVisible();

  await labelInput.selectOption({ label: 'Healthy' });
  await page.getByRole('button', { name: 'Submit for Training' }).click();

  await expect(page.getByText('Training data submitted successfully')).toBeVisible();
  await expect(healthyCount).toContainText(String(before + 1));
  // The drop zone and the label are cleared after success.
  await expect(page.getByText(path.basename(photo))).toHaveCount(0);
  await expect(labelInput).toHaveValue('');
  // The sample is listed with its uploader.
  await expect(page.getByRole('table', { name: 'Training samples' }).getByText(expert.username)).toBeVisible();
});
