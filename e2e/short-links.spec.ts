import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { createActiveUser, leafPhoto, signInAs } from './support.ts';
import { shortLinks } from '../packages/contract/src/paths.ts';

// The links of an SMS or email (`/a/7`, `/f/7`) opened by a phone that has used Kutu before: its service
// worker is in charge of every navigation, and must leave these to the server's redirect.
test.use({ serviceWorkers: 'allow', viewport: { width: 390, height: 844 } });

const controlled = (page: Page) =>
  page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
  });

test('a returning farmer opens the result and follow-up links of an SMS', async ({ page, context, request }) => {
  const farmer = await createActiveUser(request, 'farmer');
  const login = await request.post('/api/auth/login/', { data: { email: farmer.email, password: farmer.password } });
  const analysis = await request.post('/api/rust-detection/', {
    headers: { authorization: `Bearer ${(await login.json()).access}` },
    multipart: { image: { name: 'leaf.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(leafPhoto) } },
  });
  expect(analysis.ok(), await analysis.text()).toBeTruthy();
  const { id } = (await analysis.json()) as { id: number };

  await signInAs(page, farmer, '/account');
  await expect(page.getByTestId('mine-analyses')).toBeVisible();
  await controlled(page);

  await page.goto(shortLinks.analysis(id));
  await expect(page).toHaveURL(/\/account\/addresses\/analysis-history(\?|$)/);
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByText('Page not found')).toHaveCount(0);

  await page.goto(shortLinks.followUp(id));
  await expect(page).toHaveURL(new RegExp(`/account/addresses/image-analysis\\?follow_up=${id}$`));
  await expect(page.getByTestId('follow-up-banner')).toContainText(
    'This photo checks your field again after the diagnosis of',
  );

  // Offline the worker answers with the app, and the app sends the link on itself.
  await context.setOffline(true);
  await page.goto(shortLinks.followUp(id));
  await expect(page).toHaveURL(new RegExp(`/account/addresses/image-analysis\\?follow_up=${id}$`));
  await expect(page.getByText('Page not found')).toHaveCount(0);
  await context.setOffline(false);
});
