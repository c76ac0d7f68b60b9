import { expect, test } from '@playwright/test';
import { createActiveUser, leafPhoto, newestSms, signInAs } from './support.ts';
import { shortLinks } from '../packages/contract/src/paths.ts';

// The expert's answer becomes the farmer's, on a phone (docs/decisions/0049).
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'allow' });

test("after an expert's verdict with a severity band, the farmer's result leads with it, in the app, saved on the phone and by SMS", async ({
  page,
  context,
  request,
}, testInfo) => {
  const farmer = await createActiveUser(request, 'farmer');
  const expert = await createActiveUser(request, 'expert');
  await signInAs(page, farmer, '/account/addresses/image-analysis');
  await page.getByTestId('image-dropzone-camera').setInputFiles(leafPhoto);
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(page.getByTestId('analysis-result')).toBeVisible();

  const login = (email: string, password: string) => request.post('/api/auth/login/', { data: { email, password } });
  const bearer = async (email: string, password: string) => ({
    authorization: `Bearer ${(await (await login(email, password)).json()).access}`,
  });
  const farmerHeaders = await bearer(farmer.email, farmer.password);
  const [analysis] = (await (await request.get('/api/rust-detection/?page_size=1', { headers: farmerHeaders })).json())
    .results as { id: number }[];

  // The expert confirms rust, moderate, with a note.
  const expertHeaders = await bearer(expert.email, expert.password);
  const decided = await request.put(`/api/expert-reviews/${analysis!.id}/`, {
    headers: expertHeaders,
    data: { verdict: 'common_rust', severity: 'moderate', note: 'Spray this week; check again in 7 days.' },
  });
  expect(decided.ok(), await decided.text()).toBeTruthy();

  await page.goto(shortLinks.analysis(analysis!.id));
  const dialog = page.getByRole('dialog');
  const answer = dialog.getByTestId('expert-answer');
  await expect(answer.getByTestId('expert-answer-heading')).toHaveText('Common rust (Puccinia sorghi)');
  await expect(answer.getByTestId('expert-answer-severity')).toHaveText('Rust the expert saw: Moderate');
  await expect(answer.getByTestId('expert-answer-note')).toContainText('Spray this week');
  await expect(dialog.getByTestId('follow-up-reminder')).toBeVisible();
  // What the model said stays, below the expert's answer.
  await expect(dialog.getByTestId('model-said')).toHaveText('What the model said');
  const answerBox = (await answer.boundingBox())!;
  const modelBox = (await dialog.getByTestId('analysis-result').boundingBox())!;
  expect(modelBox.y).toBeGreaterThan(answerBox.y);
  await testInfo.attach('expert-answer-390px.png', { body: await page.screenshot(), contentType: 'image/png' });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The phone's saved copy shows it with no signal.
  await page.waitForFunction(() => localStorage.getItem('savedQueries')?.includes('"expert_answer"'));
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('dialog').getByTestId('expert-answer-severity')).toHaveText(
    'Rust the expert saw: Moderate',
  );
  await context.setOffline(false);

  // By SMS, with the band; a changed answer says it changed.
  expect(await newestSms(request, farmer.phone)).toContain('common rust, moderate severity');
  await request.put(`/api/expert-reviews/${analysis!.id}/`, { headers: expertHeaders, data: { verdict: 'healthy' } });
  expect(await newestSms(request, farmer.phone)).toContain('an expert now says: Healthy');
});
