import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createActiveUser, leafPhoto, signInAs } from './support.ts';

// A phone in the field has no signal, and an old tab outlives a redeploy (docs/decisions/0016).

test.use({ serviceWorkers: 'allow' });

test('after one online visit the app opens offline from the service worker', async ({ page, context }) => {
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  // The worker precaches the shell and a farmer's first screens (decision 0037), then takes control of the page.
  await page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
  });

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  // A first screen never opened online (sign-up, the terms it links to) comes from the precache too.
  await page.getByRole('link', { name: 'Sign up as a farmer' }).click();
  await expect(page).toHaveURL(/\/auth\/signup$/);
  await expect(page.getByLabel('Email').first()).toBeVisible();
  await page.goto('/terms');
  await expect(page.getByRole('heading').first()).toBeVisible();
  // The worker answers each address with index.html plus that screen's preload links, as the server does.
  const preloaded = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map((l) => new URL(l.href).pathname),
    );
  expect(await preloaded()).toContainEqual(expect.stringMatching(/^\/assets\/TermsPage-[\w-]+\.js$/));
  await page.goto('/auth/signup');
  await expect(page.getByLabel('Email').first()).toBeVisible();
  const signUp = await preloaded();
  expect(signUp).toContainEqual(expect.stringMatching(/^\/assets\/FarmerSignupPage-[\w-]+\.js$/));
  expect(signUp).not.toContainEqual(expect.stringMatching(/TermsPage/));
  await context.setOffline(false);
});

test('a first visit downloads the signed-out screens, a sign-in the first screens; others are kept once opened, or all on request', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(240_000);
  const farmer = await createActiveUser(request, 'farmer');
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
  /** The app's files the worker holds: precached, and kept since. */
  const held = (cache: 'precache' | 'kept') =>
    page.evaluate(async (which) => {
      const names = (await caches.keys()).filter((n) =>
        which === 'precache' ? n.startsWith('workbox-precache') : n === 'kutu-app-files',
      );
      const paths: string[] = [];
      for (const name of names) {
        for (const r of await (await caches.open(name)).keys()) paths.push(new URL(r.url).pathname);
      }
      return paths;
    }, cache);
  // A first visit is signed out: the signed-out screens are precached, a farmer's first screens wait for
  // the sign-in (decision 0092), and neither the home-screen icons nor the release's file list come.
  const precached = await held('precache');
  for (const screen of ['LoginPage', 'FarmerSignupPage', 'TermsPage']) {
    expect(precached, screen).toContainEqual(expect.stringMatching(new RegExp(`^/assets/${screen}-[\\w-]+\\.js$`)));
  }
  const accountFirst = ['DashboardPage', 'UploadImagePage', 'AnalysisHistoryPage', 'WalkPage', 'ProfilePage'];
  for (const screen of [...accountFirst, 'ContactPage', 'ModelTrainingPage', 'ReviewQueuePage', 'AllPostsPage']) {
    expect(precached, screen).not.toContainEqual(expect.stringMatching(new RegExp(`/${screen}-`)));
  }
  expect(precached).not.toContainEqual(expect.stringMatching(/^\/icons\/|^\/app-files\.json$/));

  // A screen opened online once is kept, and opens offline afterwards.
  await page.goto('/contact-us');
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expect.poll(() => held('kept')).toContainEqual(expect.stringMatching(/^\/assets\/ContactPage-[\w-]+\.js$/));
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading').first()).toBeVisible();
  await context.setOffline(false);

  // Signed in, the account shell has the worker keep a farmer's first screens (and the forms' schemas).
  await signInAs(page, farmer, '/account/profile');
  for (const screen of [...accountFirst, 'lazy-schemas']) {
    await expect
      .poll(() => held('kept'), { message: screen, timeout: 30_000 })
      .toContainEqual(expect.stringMatching(new RegExp(`^/assets/${screen}-[\\w-]+\\.js$`)));
  }
  await context.setOffline(true);
  await page.goto('/account/addresses/analysis-history');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await context.setOffline(false);

  // The profile says what is stored, and saves every other screen on request.
  await page.goto('/account/profile');
  const card = page.getByTestId('data-usage');
  // Reading Cache Storage takes a while on a busy phone (or test machine).
  await expect(card.getByTestId('data-usage-app')).toHaveText(
    /^Screens saved for offline use: \d+\.\d MB \(\d+ files\)$/,
    { timeout: 30_000 },
  );
  await expect(card.getByTestId('data-usage-missing')).toHaveText(/^Download: \d+\.\d MB$/);
  await card.getByRole('button', { name: 'Save all screens now' }).click();
  await expect(card.getByTestId('data-usage-missing')).toHaveCount(0, { timeout: 60_000 });
  expect(await held('kept')).toContainEqual(expect.stringMatching(/^\/assets\/ModelTrainingPage-[\w-]+\.js$/));
  await context.setOffline(true);
  await page.goto('/account/addresses/community-posts');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await context.setOffline(false);
});

test('the last dashboard seen stays readable offline, marked as the saved copy', async ({ page, context, request }) => {
  const farmer = await createActiveUser(request, 'farmer');
  const login = await request.post('/api/auth/login/', { data: { email: farmer.email, password: farmer.password } });
  const analysis = await request.post('/api/rust-detection/', {
    headers: { authorization: `Bearer ${(await login.json()).access}` },
    multipart: { image: { name: 'leaf.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(leafPhoto) } },
  });
  expect(analysis.ok(), await analysis.text()).toBeTruthy();

  await signInAs(page, farmer, '/account');
  const analysed = page.getByTestId('mine-analyses').getByTestId('mine-value');
  await expect(analysed).toHaveText('1');
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await page.waitForFunction(() => localStorage.getItem('savedQueries')?.includes('"dashboard"'));
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });

  await context.setOffline(true);
  await page.reload();
  await expect(analysed).toHaveText('1');
  await expect(page.getByTestId('offline-banner')).toHaveText(/^Offline — last updated \d{1,2} \w{3} \d{4}/);
  await context.setOffline(false);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});

test.describe('an old tab after a redeploy', () => {
  // A tab whose worker was replaced, or a browser without one: the old chunk names are gone (404).
  test.use({ serviceWorkers: 'block' });

  test('a missing route chunk shows a friendly reload, not the raw error page', async ({ page }) => {
    await page.goto('/auth');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    const gone = /\/assets\/FarmerSignupPage-[^/]+\.js$/;
    let refused = 0;
    await page.route(gone, (route) => {
      refused++;
      return route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":{"code":"NOT_FOUND"}}' });
    });

    await page.getByRole('link', { name: 'Sign up as a farmer' }).click();
    await expect(page.getByRole('heading', { name: 'Kutu was updated' })).toBeVisible();
    expect(refused).toBeGreaterThan(0);
    await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
    await expect(page.getByText(/dynamically imported module/)).toHaveCount(0);

    // The new release is in place: reloading shows the screen.
    await page.unroute(gone);
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(page).toHaveURL(/\/auth\/signup$/);
    await expect(page.getByLabel('Email').first()).toBeVisible();
  });
});
