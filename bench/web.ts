/**
 * What a farmer's phone downloads on a slow network (docs/decisions/0016): for the sign-in, sign-up, dashboard and
 * upload routes, the bytes transferred (compressed, as on the wire), the request count and the load
 * time with the network emulated at 400 kbit/s down and up and 400 ms round trips (Chromium DevTools
 * protocol), at 390×844. Cold: a new browser profile. Warm: the same profile again, with the service
 * worker installed by the cold visit (bytes then count only what still crosses the network).
 *
 * The real server serves the built app (`npm run build` first) over a PGlite database; Debian's
 * chromium (CHROMIUM_PATH to override).   npm run build && node bench/web.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { startBuiltApp } from './built-app.ts';

const NETWORK = { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };

interface Load {
  bytes: number;
  requests: number;
  ms: number;
}

/** Loads `url` and waits for `ready`, counting what crossed the (emulated) network. */
async function measure(page: Page, url: string, ready: (page: Page) => Promise<unknown>): Promise<Load> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  let bytes = 0;
  let requests = 0;
  const fromWorker = new Set<string>();
  cdp.on('Network.responseReceived', (e) => {
    if (e.response.fromServiceWorker || e.response.fromDiskCache) fromWorker.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (fromWorker.has(e.requestId)) return;
    requests++;
    bytes += e.encodedDataLength;
  });
  const start = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await ready(page);
  const ms = performance.now() - start;
  await cdp.detach();
  return { bytes, requests, ms };
}

async function main() {
  const { t, base, tokens } = await startBuiltApp();

  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-bench-web-'));
  const routes: { name: string; path: string; signedIn: boolean; ready: (p: Page) => Promise<unknown> }[] = [
    {
      name: 'sign-in',
      path: '/auth',
      signedIn: false,
      ready: (p) => p.getByRole('button', { name: 'Sign In' }).waitFor(),
    },
    { name: 'sign-up', path: '/auth/signup', signedIn: false, ready: (p) => p.getByLabel('Email').first().waitFor() },
    {
      name: 'dashboard',
      path: '/account',
      signedIn: true,
      ready: (p) => p.getByRole('navigation').first().waitFor(),
    },
    {
      name: 'upload',
      path: '/account/addresses/image-analysis',
      signedIn: true,
      ready: (p) => p.getByRole('heading', { name: 'Upload Image' }).waitFor(),
    },
  ];
  const launch = () =>
    chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      viewport: { width: 390, height: 844 },
      baseURL: base,
    });
  const signIn = async (context: BrowserContext) => {
    await context.addInitScript(
      ([a, r, u]) => {
        localStorage.setItem('accessToken', a);
        localStorage.setItem('refreshToken', r);
        localStorage.setItem('user', JSON.stringify(u));
      },
      [tokens.access, tokens.refresh, tokens.user] as const,
    );
  };

  const rows: string[] = [];
  try {
    for (const route of routes) {
      fs.rmSync(profile, { recursive: true, force: true });
      const results: Load[] = [];
      for (const visit of ['cold', 'warm']) {
        const context = await launch();
        if (route.signedIn) await signIn(context);
        const page = context.pages()[0] ?? (await context.newPage());
        results.push(await measure(page, `${base}${route.path}`, route.ready));
        if (visit === 'cold') {
          // Let the worker finish precaching (off the measured load, as on a phone left open).
          await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
          await page.waitForTimeout(1000);
        }
        await context.close();
      }
      const [cold, warm] = results as [Load, Load];
      const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
      rows.push(
        `${route.name.padEnd(10)} cold ${kib(cold.bytes).padStart(10)} ${String(cold.requests).padStart(3)} req ${(cold.ms / 1000).toFixed(1).padStart(5)} s` +
          `   warm ${kib(warm.bytes).padStart(10)} ${String(warm.requests).padStart(3)} req ${(warm.ms / 1000).toFixed(1).padStart(5)} s`,
      );
      console.log(rows.at(-1));
    }
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
    await t.close();
  }
}

await main();
