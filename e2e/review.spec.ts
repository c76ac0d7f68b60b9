import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createActiveUser, signInAs } from './support.ts';

const leafPhoto = path.resolve(import.meta.dirname, '../apps/server/test/fixtures/maize-common-rust.jpg');

test('a farmer asks an expert; the expert corrects the class with a note; the farmer sees it live and the training figures move', async ({
  page,
  browser,
  request,
}) => {
  const farmer = await createActiveUser(request, 'farmer');
  const expert = await createActiveUser(request, 'expert');

  // The farmer (maize in their profile) analyses a photo and asks about it.
  await signInAs(page, farmer, '/account/addresses/image-analysis');
  await expect(page.getByTestId('crop-choice').getByRole('radio', { name: 'Maize' })).toBeChecked();
  await page.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles(leafPhoto);
  await page.getByRole('button', { name: 'Process Image' }).click();
  const heading = (await page.getByTestId('result-heading').textContent()) ?? '';
  // The class label the review panel shows beside the expert's verdict, read from the heading's words.
  const modelClass = /common rust/i.test(heading)
    ? 'Common rust (Puccinia sorghi)'
    : /healthy/i.test(heading)
      ? 'Healthy'
      : /disease/i.test(heading)
        ? 'Other Diseases'
        : 'No leaf found';
  // Where the model looked is for the expert (decision 0054): the farmer gets no switch for it.
  await expect(page.getByTestId('result-heading')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Show where the model looked' })).toHaveCount(0);
  const panel = page.getByTestId('expert-review-panel');
  await panel.getByRole('button', { name: 'Ask an expert' }).click();
  await panel.getByTestId('ask-question').fill('Are these orange spots rust?');
  await panel.getByRole('button', { name: 'Send to an expert' }).click();
  await expect(panel.getByTestId('question-waiting')).toContainText('Are these orange spots rust?');

  // The expert notes the training figures, then reviews the question at the top of the queue.
  const expertContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const expertPage = await expertContext.newPage();
  const corrected = modelClass === 'Healthy' ? 'Other Diseases' : 'Healthy';
  const countId = corrected === 'Healthy' ? 'count-healthy' : 'count-other_disease';
  await signInAs(expertPage, expert, '/account/addresses/model-training');
  const count = expertPage.getByTestId(countId).locator('p').last();
  await expect(count).toHaveText(/^\d+$/);
  const samplesBefore = Number(await count.textContent());
  const agreement = expertPage.getByTestId('field-accuracy').getByTestId('field-agreement').first();
  await expect(agreement).toBeVisible();
  const agreementBefore = await agreement.textContent();

  await expertPage.goto('/account/addresses/review-queue');
  const first = expertPage.getByTestId('queue-item').first();
  await expect(first.getByTestId('queue-question')).toContainText('Are these orange spots rust?');
  await first.getByRole('button', { name: 'Review' }).click();
  const dialog = expertPage.getByRole('dialog');
  await expect(dialog.getByText('Are these orange spots rust?')).toBeVisible();
  await dialog.getByRole('switch', { name: 'Show where the model looked' }).check();
  await expect(dialog.getByTestId('heatmap-overlay')).toBeVisible();
  await dialog.getByRole('radio', { name: corrected }).check();
  await dialog.getByTestId('verdict-note').fill('Dust and old lesions, no pustules. Check again in a week.');
  await dialog.getByRole('button', { name: 'Save verdict' }).click();
  await expect(expertPage.getByText('Verdict saved; the farmer has been told')).toBeVisible();
  await expect(dialog).toBeHidden();
  // The verdict is among the expert's own, open to revision.
  await expertPage.getByRole('tab', { name: 'My verdicts' }).click();
  await expect(expertPage.getByTestId('my-verdict').first().getByTestId('my-verdict-class')).toHaveText(corrected);

  // The farmer's open result shows the verdict without a reload.
  await expect(panel.getByTestId('expert-verdict-class')).toHaveText(corrected);
  await expect(panel.getByTestId('expert-verdict-note')).toContainText('no pustules');
  await expect(panel).toContainText(`The model said${modelClass}`);

  // One more sample for that class, and the field agreement moved.
  await expertPage.goto('/account/addresses/model-training');
  await expect(count).toHaveText(String(samplesBefore + 1));
  await expect(agreement).not.toHaveText(agreementBefore ?? '');
  await expertContext.close();
});
