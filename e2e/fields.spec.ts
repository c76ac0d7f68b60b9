import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
import en from '../apps/web/src/lib/locales/en.json' with { type: 'json' };
import lg from '../apps/web/src/lib/locales/lg.json' with { type: 'json' };
import sw from '../apps/web/src/lib/locales/sw.json' with { type: 'json' };
import { createActiveUser, cutTexts, leafPhoto, signInWithLanguage } from './support.ts';

// A farmer's fields and scouting walks (decision 0078) on a 390 px phone: two fields each with its own
// walk and advice, a walk counted with no signal that is sent once the signal is back, and every screen
// whole in English, Kiswahili and Luganda.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const DAY_MS = 24 * 60 * 60 * 1000;
/** A planting date so many weeks before today (UTC, as the rules count). */
const plantedWeeksAgo = (weeks: number) => new Date(Date.now() - weeks * 7 * DAY_MS).toISOString().slice(0, 10);

interface Walked {
  count: number;
  results: { plants_rust: number; plants_looked: number; channel: string; walked_at: string }[];
}

/** A farmer with a district (a field is in one), signed in in `language`; the API's headers. */
async function farmerIn(page: Page, request: APIRequestContext, language: 'en' | 'sw' | 'lg') {
  const farmer = await createActiveUser(request, 'farmer');
  const headers = await signInWithLanguage(page, request, farmer, language);
  const district = await request.put('/api/outbreak/settings/', { data: { district: 'UG-208' }, headers });
  expect(district.ok(), await district.text()).toBeTruthy();
  return headers;
}

async function addField(request: APIRequestContext, headers: { authorization: string }, name: string) {
  const res = await request.post('/api/fields/', {
    data: { name, crop: 'maize', planted_on: plantedWeeksAgo(8) },
    headers,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** Walks the field open on screen: 10 plants looked at per stop (the default) unless `looked`, these with rust. */
async function walk(page: Page, rustPerStop: number[], check?: (name: string) => Promise<void>, looked?: number) {
  await page.getByTestId('walk-start').click();
  for (const [i, rust] of rustPerStop.entries()) {
    if (looked !== undefined) await page.getByTestId('stop-looked-value').fill(String(looked));
    await page.getByTestId('stop-rust-value').fill(String(rust));
    if (i === 0) await check?.('stop');
    if (i < rustPerStop.length - 1) await page.getByTestId('walk-next').click();
  }
  await page.getByTestId('walk-finish').click();
  return page.getByTestId('walk-answer');
}

async function noTextCut(page: Page, testInfo: TestInfo, name: string) {
  await page.evaluate(() => document.fonts.ready);
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  expect.soft(await cutTexts(page), `${name}: text cut short`).toEqual([]);
}

test('two fields each get their own walk: 20 of 50 and 2 of 50 plants give different advice that names the count', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const headers = await farmerIn(page, request, 'en');
  await page.goto('/account/fields');
  await page.getByTestId('fields-empty').getByRole('button', { name: 'Add a field' }).click();
  const form = page.getByTestId('field-form');
  await form.getByLabel('Name of the field').fill('River maize');
  await form.getByLabel('Planting date').fill(plantedWeeksAgo(8));
  await form.getByRole('button', { name: 'Save the field' }).click();
  await expect(page.getByRole('heading', { name: 'River maize', level: 1 })).toBeVisible();
  await expect(page.getByTestId('field-facts')).toContainText('8 weeks after planting · flowering');

  await page.getByTestId('walk-this-field').click();
  const many = await walk(page, [4, 4, 4, 4, 4]);
  await expect(many.getByRole('heading', { name: 'Spray now' })).toBeVisible();
  await expect(many.getByTestId('walk-rests-on')).toHaveText(
    'This rests on: rust on 20 of 50 plants, maize at 8 weeks.',
  );
  await expect(many.getByTestId('walk-compared')).toHaveText(/first walk of this field/);
  await expect(many.getByTestId('walk-sources').getByRole('link').first()).toHaveAttribute('href', /^https:\/\//);
  await noTextCut(page, testInfo, 'en-answer');
  const sprayed = await many.getByTestId('walk-steps').textContent();

  const hill = await addField(request, headers, 'Hill maize');
  // The reminder's short link (an SMS's /w/ID) opens that field's walk.
  await page.goto(`/w/${hill}`);
  await expect(page).toHaveURL(new RegExp(`/account/fields/${hill}/walk$`));
  await expect(page.getByRole('heading', { name: 'Walk Hill maize', level: 1 })).toBeVisible();
  const few = await walk(page, [0, 1, 0, 1, 0]);
  await expect(few.getByRole('heading', { name: 'Walk again soon' })).toBeVisible();
  await expect(few.getByTestId('walk-rests-on')).toHaveText('This rests on: rust on 2 of 50 plants, maize at 8 weeks.');
  expect(await few.getByTestId('walk-steps').textContent()).not.toBe(sprayed);

  // Each field has its own last walk, and its own reminder.
  await page.goto('/account/fields');
  const river = page.getByRole('article', { name: 'River maize' });
  await expect(river.getByTestId('field-last-walk')).toHaveText(/: rust on 20 of 50 plants \(40\s?%\)$/);
  await expect(river.getByTestId('field-next-ask')).toBeVisible();
  const hillRow = page.getByRole('article', { name: 'Hill maize' });
  await expect(hillRow.getByTestId('field-last-walk')).toHaveText(/: rust on 2 of 50 plants \(4\s?%\)$/);
  await expect(hillRow.getByTestId('field-next-ask')).toBeVisible();
  await noTextCut(page, testInfo, 'en-fields');

  // The next walk of a field is compared with its last one.
  await river.getByRole('link', { name: 'Walk this field' }).click();
  const again = await walk(page, [0, 1, 0, 1, 0]);
  await expect(again.getByTestId('walk-compared')).toHaveText(/^Better than on .+: 2 of 50 against 20 of 50\.$/);

  // A photo goes to the field chosen on the upload screen, and its result names it.
  await page.goto('/account/addresses/image-analysis');
  const choice = page.getByTestId('field-choice');
  await choice.getByRole('button', { name: 'River maize (Maize)' }).click();
  await expect(choice.getByRole('button', { name: 'River maize (Maize)' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('image-dropzone-camera').setInputFiles(leafPhoto);
  await page.getByRole('button', { name: 'Process Image' }).click();
  await expect(page.getByTestId('result-field')).toHaveText('Field: River maize');
  // Walked minutes ago: the result says what that walk found rather than asking for one.
  await expect(page.getByTestId('walk-ask')).toContainText('You walked River maize on');
});

for (const language of ['en', 'sw', 'lg'] as const) {
  const words = { en, sw, lg }[language];
  test(`a walk and its fields' screens show every word whole on a 390 px phone in ${language}`, async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(120_000);
    const headers = await farmerIn(page, request, language);
    const id = await addField(request, headers, 'Shamba la mto');
    const check = (name: string) => noTextCut(page, testInfo, `${language}-${name}`);

    await page.goto('/account/fields');
    await page.getByRole('button', { name: words.fields.add }).click();
    await expect(page.getByTestId('field-form')).toBeVisible();
    await check('field-form');
    await page.getByRole('button', { name: words.fields.form.cancel }).click();

    await page.goto(`/account/fields/${id}`);
    await expect(page.getByTestId('walk-this-field')).toBeVisible();
    await check('field');
    await page.getByTestId('walk-this-field').click();
    await expect(page.getByTestId('walk-how')).toBeVisible();
    await check('how');
    const answer = await walk(page, [4, 4, 4, 4, 4], check);
    await expect(answer.getByRole('heading', { name: words.fields.action.spray_now })).toBeVisible();
    const counts = words.fields.count_other.replace('{{rust}}', '20').replace('{{looked}}', '50');
    await expect(answer.getByTestId('walk-rests-on')).toContainText(counts);
    await check('answer');
    await page.goto('/account/fields');
    await expect(page.getByTestId('field-last-walk')).toContainText(counts);
    await check('fields');

    // 3 rusty maize plants of 10 (five stops of two): 30 %, but from 11 % to 60 %, bears no spray yet; the first
    // step is to count a full walk.
    await page.goto(`/account/fields/${id}`);
    await page.getByTestId('walk-this-field').click();
    const short = await walk(page, [1, 1, 1, 0, 0], undefined, 2);
    await expect(short.getByRole('heading', { name: words.fields.action.spray_now })).toHaveCount(0);
    await expect(short.getByTestId('walk-steps').getByRole('listitem').first()).toHaveText(
      words.fields.steps.count_before_spray,
    );
    await check('short-walk');
  });
}

test('a walk counted with no signal answers on the phone at once, and is sent once with its time when the signal is back', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const headers = await farmerIn(page, request, 'en');
  const id = await addField(request, headers, 'Far field');
  const walks = async () => (await (await request.get(`/api/fields/${id}/walks/`, { headers })).json()) as Walked;

  // The screens are opened once with a signal (the worker keeps them for later: e2e/pwa.spec.ts).
  await page.goto('/account/fields');
  await page.getByRole('link', { name: 'Far field' }).click();
  await page.getByTestId('walk-this-field').click();
  await expect(page.getByTestId('walk-how')).toBeVisible();

  await context.setOffline(true);
  const before = Date.now();
  const answer = await walk(page, [4, 4, 4, 4, 4]);
  await expect(answer.getByTestId('walk-on-phone')).toHaveText(
    "Worked out on your phone — it will be sent when you're online",
  );
  await expect(answer.getByRole('heading', { name: 'Spray now' })).toBeVisible();
  await expect(answer.getByTestId('walk-rests-on')).toHaveText(
    'This rests on: rust on 20 of 50 plants, maize at 8 weeks.',
  );
  await page.getByRole('link', { name: 'Back to the field' }).click();
  await expect(page.getByTestId('walk-queue')).toHaveText('1 walk waiting to be sent');
  // The field list is read from the phone's copy.
  await page.getByRole('main').getByRole('link', { name: 'My fields' }).click();
  await expect(page.getByTestId('field-last-walk')).toContainText('rust on 20 of 50 plants');
  expect((await walks()).count).toBe(0);

  await page.waitForTimeout(1500);
  const back = Date.now();
  await context.setOffline(false);
  await expect(page.getByText('1 walk counted offline has been sent')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('walk-queue')).toHaveCount(0);
  const sent = await walks();
  expect(sent.count).toBe(1);
  expect(sent.results[0]).toMatchObject({ plants_rust: 20, plants_looked: 50, channel: 'offline' });
  // The time it was walked, not the time it was sent.
  const walkedAt = Date.parse(sent.results[0]!.walked_at);
  expect(walkedAt).toBeGreaterThanOrEqual(before - 1000);
  expect(walkedAt).toBeLessThan(back);

  // Another start of the app (a second chance to send) makes no second walk.
  await page.reload();
  await expect(page.getByTestId('field-row')).toBeVisible();
  await page.waitForTimeout(1000);
  expect((await walks()).count).toBe(1);
});
