import fs from 'node:fs';
import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
import lg from '../apps/web/src/lib/locales/lg.json' with { type: 'json' };
import sw from '../apps/web/src/lib/locales/sw.json' with { type: 'json' };
import { createActiveUser, cutTexts, leafPhoto, signInWithLanguage } from './support.ts';

// What a farmer and an expert read on a 390 px phone in English, Kiswahili and Luganda (the longer
// words): no text cut short (an ellipsis, a clipped box, a column off the side) and no message squeezed
// into a narrow strip beside its button, on the screens where it was: the top bar's name, the
// notifications, the bookings' status choice, the expert's resources and the outbreak districts.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** A maize leaf with common rust, analysed for the signed-in farmer through the API. */
async function analyse(request: APIRequestContext, headers: { authorization: string }) {
  const analysed = await request.post('/api/rust-detection/', {
    headers,
    multipart: {
      crop: 'maize',
      image: { name: 'leaf.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(leafPhoto) },
    },
  });
  expect(analysed.ok(), await analysed.text()).toBeTruthy();
}

async function check(page: Page, testInfo: TestInfo, name: string) {
  await page.evaluate(() => document.fonts.ready);
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  expect.soft(await cutTexts(page), `${name}: text cut short`).toEqual([]);
}

for (const language of ['en', 'sw', 'lg'] as const) {
  test(`a farmer's screens show every word whole on a 390 px phone in ${language}`, async ({
    page,
    request,
  }, testInfo) => {
    const farmer = await createActiveUser(request, 'farmer');
    // An analysis leaves a notification (in the account's language) with its Mark as read button.
    await analyse(request, await signInWithLanguage(page, request, farmer, language));

    await page.goto('/account');
    const notification = page.getByTestId('notification').first();
    await expect(notification).toBeVisible();
    // The message has the card's width, not a strip beside the button.
    const message = notification.locator('p, a').first();
    expect.soft((await message.boundingBox())!.width).toBeGreaterThan(250);
    // The app's name is whole, clear of the language switch beside it (it showed as "Ku").
    const name = page.locator('header').getByText('Kutu', { exact: true });
    await expect(name).toBeVisible();
    expect.soft(await name.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    const nameBox = (await name.boundingBox())!;
    const switchBox = (await page.getByTestId('language-switch').boundingBox())!;
    expect.soft(nameBox.x + nameBox.width).toBeLessThanOrEqual(switchBox.x);
    await check(page, testInfo, `${language}-dashboard`);

    await page.goto('/account/addresses/my-bookings');
    await expect(page.locator('h1').first()).toBeVisible();
    await check(page, testInfo, `${language}-my-bookings`);

    // Profile opens on what a farmer needs: the district and SMS alerts, not an ID form.
    await page.goto('/account/profile');
    await expect(page.getByTestId('language-switch').first()).toBeVisible();
    await expect(page.getByRole('tab', { selected: true })).toHaveText(
      { en: 'Account Summary', sw: sw.profile.tabs.summary, lg: lg.profile.tabs.summary }[language],
    );
    await expect(page.locator('input[autocomplete="bday"]')).toHaveCount(0);
    await check(page, testInfo, `${language}-profile`);

    // My data: the archive, the consent switches and deleting the account.
    await page.goto('/account/profile?tab=data');
    await expect(
      page.getByRole('button', {
        name: { en: 'Download my data', sw: sw.profile.privacy.download, lg: lg.profile.privacy.download }[language],
      }),
    ).toBeVisible();
    await expect(page.getByRole('switch').first()).toBeEnabled();
    await check(page, testInfo, `${language}-my-data`);
  });

  test(`an expert's screens show every word whole on a 390 px phone in ${language}`, async ({
    page,
    request,
  }, testInfo) => {
    const expert = await createActiveUser(request, 'expert');
    // Three farmers' rust photos: reported cases in the district table, with its Review link (a district
    // with fewer than 3 is not listed: decision 0052).
    for (let i = 0; i < 3; i++) {
      const farmer = await createActiveUser(request, 'farmer');
      const farmerHeaders = await signInWithLanguage(page, request, farmer, language);
      const district = await request.put('/api/outbreak/settings/', {
        data: { district: 'UG-208' },
        headers: farmerHeaders,
      });
      expect(district.ok(), await district.text()).toBeTruthy();
      await analyse(request, farmerHeaders);
    }
    await signInWithLanguage(page, request, expert, language);

    await page.goto('/account/addresses/bookings');
    await expect(page.locator('h1').first()).toBeVisible();
    await check(page, testInfo, `${language}-bookings`);

    await page.goto('/account/addresses/education-resources');
    await expect(page.getByRole('button', { name: /./ }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await check(page, testInfo, `${language}-resources`);

    await page.goto('/account/addresses/outbreak-map');
    await page.getByRole('tab').nth(1).click();
    await expect(page.locator('a[href*="district=UG-208"]')).toBeVisible();
    await check(page, testInfo, `${language}-districts`);
  });
}
