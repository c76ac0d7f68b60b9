import fs from 'node:fs';
import { expect, type APIRequestContext, type Page, test } from '@playwright/test';
import { createActiveUser, type E2EUser, leafPhoto, signInAs } from './support.ts';

// Spoken answers (docs/decisions/0087) on a 390 px phone. What the page plays is captured where it is made:
// every buffer handed to Web Audio, with its length and loudness; the microphone is Chromium's fake one.
test.use({
  serviceWorkers: 'allow',
  viewport: { width: 390, height: 844 },
  permissions: ['microphone'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      // Sound without a user's own gesture and without a sound card.
      '--autoplay-policy=no-user-gesture-required',
    ],
  },
});

declare global {
  interface Window {
    heard: { seconds: number; rms: number }[];
  }
}

/** Records every sound the page starts: its length and root mean square loudness. */
async function listenToThePage(page: Page) {
  await page.addInitScript(() => {
    window.heard = [];
    const start = AudioBufferSourceNode.prototype.start;
    AudioBufferSourceNode.prototype.start = function (...args: Parameters<typeof start>) {
      const b = this.buffer;
      if (b) {
        const data = b.getChannelData(0);
        let sum = 0;
        for (let i = 0; i < data.length; i++) sum += data[i]! * data[i]!;
        window.heard.push({ seconds: b.duration, rms: Math.sqrt(sum / Math.max(1, data.length)) });
      }
      return start.apply(this, args);
    };
  });
}
const heard = (page: Page) => page.evaluate(() => window.heard);
const clearHeard = (page: Page) => page.evaluate(() => (window.heard = []));
/** Waits until at least `seconds` of sound was started, louder than silence. */
async function expectSound(page: Page, seconds: number) {
  await expect
    .poll(async () => (await heard(page)).filter((h) => h.rms > 0.01).reduce((s, h) => s + h.seconds, 0), {
      timeout: 60_000,
    })
    .toBeGreaterThan(seconds);
}

async function analyse(request: APIRequestContext, user: E2EUser) {
  const login = await request.post('/api/auth/login/', { data: { email: user.email, password: user.password } });
  const headers = { authorization: `Bearer ${(await login.json()).access}` };
  const res = await request.post('/api/rust-detection/', {
    headers,
    multipart: {
      crop: 'maize',
      image: { name: 'leaf.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(leafPhoto) },
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return { headers, result: (await res.json()) as { id: number; feedback: { finding: { key: string } } } };
}

async function controlledByTheWorker(page: Page) {
  await page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
  });
}

const fitsThePhone = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

test('a farmer hears the result and its advice in English and Kiswahili, then with the network off', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(240_000);
  const farmer = await createActiveUser(request, 'farmer');
  const { result } = await analyse(request, farmer);
  await listenToThePage(page);
  const voiceFiles: string[] = [];
  page.on('requestfinished', (r) => {
    if (/\/assets\/espeak-ng[-.\w]*\.(js|data)$/.test(r.url())) voiceFiles.push(new URL(r.url()).pathname);
  });
  await signInAs(page, farmer, `/account/addresses/analysis-history?analysis=${result.id}`);
  const card = page.getByTestId('analysis-result').first();
  await expect(card.getByTestId('result-heading')).toBeVisible();
  // The voice is not part of the screen: nothing of it was fetched before the tap.
  expect(voiceFiles).toEqual([]);
  await controlledByTheWorker(page);

  await card.getByTestId('listen').getByRole('button', { name: 'Listen' }).click();
  await expectSound(page, 4);
  expect(voiceFiles.sort()).toEqual([
    expect.stringMatching(/\/espeak-ng-[\w-]+\.js$/),
    expect.stringMatching(/\/espeak-ng-en-sw-[\w-]+\.data$/),
  ]);
  await fitsThePhone(page);
  const english = await heard(page);
  // While it speaks, the button stops it.
  await card.getByRole('button', { name: 'Stop' }).click();
  await expect(card.getByRole('button', { name: 'Listen' })).toBeVisible();

  await page.getByTestId('language-switch').selectOption('sw');
  await clearHeard(page);
  await card.getByRole('button', { name: 'Sikiliza' }).click();
  await expectSound(page, 4);
  // Kiswahili words: another reading than the English one.
  expect((await heard(page)).map((h) => h.seconds.toFixed(2))).not.toEqual(english.map((h) => h.seconds.toFixed(2)));
  await card.getByRole('button', { name: 'Simamisha' }).click();

  // No network: the page and the voice come from the phone.
  await context.setOffline(true);
  await page.reload();
  const offline = page.getByTestId('analysis-result').first();
  await offline.getByRole('button', { name: 'Sikiliza' }).click();
  await expectSound(page, 4);
  await offline.getByRole('button', { name: 'Simamisha' }).click();
  await page.getByTestId('language-switch').selectOption('en');
  await clearHeard(page);
  await offline.getByRole('button', { name: 'Listen' }).click();
  await expectSound(page, 4);
  await context.setOffline(false);
});

test('a Luganda recording made and approved in the browser plays for a Luganda farmer, offline too', async ({
  browser,
  page,
  context,
  request,
}) => {
  test.setTimeout(240_000);
  const farmer = await createActiveUser(request, 'farmer');
  const { headers, result } = await analyse(request, farmer);
  expect((await request.put('/api/auth/language/', { data: { language: 'lg' }, headers })).ok()).toBeTruthy();
  const key = result.feedback.finding.key;

  // An expert records the result's sentence in Luganda with the microphone.
  const recorder = await createActiveUser(request, 'expert');
  const approver = await createActiveUser(request, 'expert');
  const expertPage = await (
    await browser.newContext({ viewport: { width: 390, height: 844 }, permissions: ['microphone'] })
  ).newPage();
  await signInAs(expertPage, recorder, '/account/voice-clips');
  await expect(expertPage.getByRole('heading', { name: 'Recorded voices' })).toBeVisible();
  const text = expertPage.getByTestId(`voice-text-${key}`);
  // The result's sentences come first, ten a page (once the list is in: a page turned before would skip it).
  await expect(expertPage.getByText(/^1–10 of \d+ texts$/)).toBeVisible();
  for (let i = 0; i < 6 && !(await text.isVisible()); i++) {
    await expertPage.getByRole('button', { name: 'Next page' }).last().click();
  }
  await expect(text.getByText('Not recorded')).toBeVisible();
  await text.getByRole('button', { name: 'Record' }).click();
  await expect(text.getByRole('status')).toContainText('Recording: 2 s', { timeout: 10_000 });
  await text.getByRole('button', { name: 'Stop' }).click();
  await text.getByRole('button', { name: 'Send for approval' }).click();
  await expect(expertPage.getByText('Sent: the recording waits for approval.')).toBeVisible();
  await expect(text.getByText('Waiting for approval')).toBeVisible();
  await fitsThePhone(expertPage);
  // The one who recorded it may not approve it.
  const pending = expertPage.locator('[data-testid^="pending-clip-"]').first();
  await expect(pending.getByText('You recorded this: another person approves it.')).toBeVisible();

  // A second expert approves it.
  const secondPage = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await signInAs(secondPage, approver, '/account/voice-clips');
  await secondPage.locator('[data-testid^="pending-clip-"]').first().getByRole('button', { name: 'Approve' }).click();
  await expect(secondPage.getByText('Approved: farmers hear it now.')).toBeVisible();

  // The Luganda farmer hears it: the recording (fetched once), the rest in English, said as such.
  await listenToThePage(page);
  const clips: string[] = [];
  page.on('requestfinished', (r) => {
    if (r.url().includes('/api/voice/clips/')) clips.push(r.url());
  });
  await signInAs(page, farmer, `/account/addresses/analysis-history?analysis=${result.id}`);
  await page.evaluate(() => localStorage.setItem('language', 'lg'));
  await page.reload();
  const card = page.getByTestId('analysis-result').first();
  await expect(card.getByTestId('listen')).toContainText('Tewannabaawo ddoboozi lya Luganda');
  await controlledByTheWorker(page);
  await card.getByRole('button', { name: 'Wuliriza' }).click();
  await expectSound(page, 5);
  expect(clips).toHaveLength(1);
  // Chromium's fake microphone: a recording of about two seconds, first.
  const first = (await heard(page))[0]!;
  expect(first.seconds).toBeGreaterThan(1.5);
  expect(first.rms).toBeGreaterThan(0.01);
  await fitsThePhone(page);
  await card.getByRole('button', { name: 'Yimiriza' }).click();

  await context.setOffline(true);
  await page.reload();
  await clearHeard(page);
  await page.getByTestId('analysis-result').first().getByRole('button', { name: 'Wuliriza' }).click();
  await expectSound(page, 5);
  expect((await heard(page))[0]!.seconds).toBeCloseTo(first.seconds, 1);
  expect(clips).toHaveLength(1);
  await context.setOffline(false);
});
