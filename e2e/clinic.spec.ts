import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { createActiveUser, signInAs } from './support.ts';

// A plant doctor's visit for a farmer without a smartphone (decision 0053), on the
// doctor's phone: a new number, the farmer's consent, a new field and the plants counted on it (decision
// 0078), Kutu's diagnosis, the doctor's verdict, one SMS with the field's advice.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const fixture = (name: string) => path.resolve(import.meta.dirname, '../apps/server/test/fixtures', name);
const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });
const fitsPhone = async (page: Page) =>
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);

test('a plant doctor records a visit for a new basic-phone farmer, who gets one result SMS', async ({
  page,
  request,
}) => {
  const doctor = await createActiveUser(request, 'expert');
  const subscriber = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  const phone = { national: `077${subscriber}`, e164: `+25677${subscriber}` };
  await signInAs(page, doctor, '/account/addresses/clinic');
  await expect(page.getByRole('heading', { name: 'Plant clinic' })).toBeVisible();

  await field(page, "Farmer's phone number").fill(phone.national);
  await page.getByRole('button', { name: 'New to Kutu? Add the farmer' }).click();
  await field(page, "Farmer's name").fill('Amina Nakato');
  await page.getByTestId('district-select').selectOption('UG-101');
  await page.getByRole('combobox', { name: 'Language for SMS' }).selectOption('lg');
  await page.getByRole('checkbox', { name: /keeps their name/ }).check();
  await page.getByRole('combobox', { name: 'Growth stage' }).selectOption('vegetative');
  // The plants counted instead of the share of the field guessed, in a new field of the farmer's.
  await page.getByRole('combobox', { name: /^Field/ }).selectOption('new');
  await field(page, 'Name of the new field').fill('Near the river');
  await page.getByRole('textbox', { name: 'Plants looked at' }).fill('50');
  await page.getByRole('textbox', { name: 'Plants with rust' }).fill('20');
  await page
    .getByTestId('clinic-photo')
    .locator('input[type=file]')
    .first()
    .setInputFiles(fixture('maize-common-rust.jpg'));
  await expect(page.getByText('Photos: 1 of 3')).toBeVisible();
  await fitsPhone(page);

  const sent = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/clinic/visits/'));
  await page.getByRole('button', { name: 'Diagnose' }).click();
  expect((await sent).status()).toBe(201);
  await expect(page.getByText("Kutu's diagnosis for", { exact: false })).toBeVisible();
  await expect(page.getByText(/Photo 1: .*rust/i)).toBeVisible();
  await expect(page.getByText('Near the river: rust on 20 of 50 plants (40%)')).toBeVisible();
  await expect(page.getByText('Advice sent with a rust result: spray now')).toBeVisible();
  await fitsPhone(page);

  await page.getByRole('combobox', { name: 'Your diagnosis' }).selectOption('common_rust');
  await page.getByRole('textbox', { name: /Recommendation for the farmer/ }).fill('Pick off the worst leaves');
  await page.getByRole('button', { name: 'Confirm and send SMS' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved:' })).toBeVisible();

  // Exactly one message to the farmer, in Luganda, with the USSD code for the follow-up. The outbox's
  // worker sends it just after the answer (docs/decisions/0050), in numbered parts when it is long.
  const toFarmer = async () => {
    const outbox = (await (await request.get('/api/dev/outbox/')).json()) as {
      results: { to: string; text: string }[];
    };
    return outbox.results.filter((m) => m.to === phone.e164).map((m) => m.text);
  };
  const partOf = (text: string) => /\((\d+)\/(\d+)\)$/.exec(text);
  await expect.poll(async () => (await toFarmer()).length, { timeout: 30_000 }).toBeGreaterThan(0);
  await expect
    .poll(async () => {
      const texts = await toFarmer();
      return texts.length === Number(partOf(texts[0]!)?.[2] ?? 1);
    })
    .toBe(true);
  const texts = await toFarmer();
  const parts = texts.map((text) => partOf(text));
  // One message: a lone text, or parts 1..N of one N-part text, each once.
  expect(parts.every((p) => p?.[2] === parts[0]?.[2])).toBe(true);
  expect(new Set(parts.map((p) => p?.[1] ?? '1')).size).toBe(texts.length);
  const whole = texts
    .map((text, i) => ({ n: Number(parts[i]?.[1] ?? 1), text: text.replace(/ \(\d+\/\d+\)$/, '') }))
    .sort((a, b) => a.n - b.n)
    .map((p) => p.text)
    .join(' ');
  expect(whole).toContain("Kiriniki y'ebirime eya Kutu");
  // The field's advice: what it rests on (the counts, maize at the stage the doctor saw) and its first step.
  expect(whole).toContain(
    "Okutambula mu nnimiro: kutu ku bimera 20 ku 50, kasooli ku mutendera gwa okukula kw'ebikoola.",
  );
  expect(whole).toContain('*384*123#');

  await page.getByRole('tab', { name: 'My records' }).click();
  await expect(page.getByText(phone.e164, { exact: false })).toBeVisible();
  await expect(page.getByText(/rust on 20 of 50 plants/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
  await fitsPhone(page);
});
