/**
 * Screenshots of the built app's main screens at phone and desktop width, to compare before and after a
 * change to what CSS loads where (decision 0016): a screen missing a component's styles looks broken.
 *
 *   npm run build && node bench/screenshots.ts DIR           # writes DIR/<screen>-<width>.png
 *   node bench/screenshots.ts --compare BEFORE AFTER         # pixels that differ, per screenshot
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import sharp from 'sharp';

const SCREENS: { name: string; url: string; signedIn?: boolean; act?: (page: Page) => Promise<void> }[] = [
  { name: 'sign-in', url: '/auth' },
  { name: 'sign-up', url: '/auth/signup' },
  { name: 'contact', url: '/contact-us' },
  { name: 'dashboard', url: '/account', signedIn: true },
  { name: 'upload', url: '/account/addresses/image-analysis', signedIn: true },
  { name: 'profile', url: '/account/profile', signedIn: true },
  {
    name: 'sign-in-toast',
    url: '/auth',
    act: async (page) => {
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.locator('.mantine-Notification-root').waitFor();
    },
  },
  {
    name: 'post-dialog',
    url: '/account/addresses/community-posts',
    signedIn: true,
    act: async (page) => {
      const ask = page.getByRole('button', { name: 'Ask the community' });
      if (await ask.isVisible()) await ask.click();
    },
  },
];
const WIDTHS = [390, 1280];

async function take(dir: string) {
  const { startBuiltApp } = await import('./built-app.ts');
  const { t, base, tokens } = await startBuiltApp();
  fs.mkdirSync(dir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const screen of SCREENS)
      for (const width of WIDTHS) {
        const context = await browser.newContext({
          serviceWorkers: 'block',
          viewport: { width, height: 844 },
          timezoneId: 'Africa/Kampala',
          reducedMotion: 'reduce',
        });
        await context.addInitScript(
          ([signedIn, a, r, u]) => {
            if (!signedIn) return;
            localStorage.setItem('accessToken', a);
            localStorage.setItem('refreshToken', r);
            localStorage.setItem('user', JSON.stringify(u));
          },
          [!!screen.signedIn, tokens.access, tokens.refresh, tokens.user] as const,
        );
        const page = await context.newPage();
        await page.goto(`${base}${screen.url}`, { waitUntil: 'networkidle' });
        await screen.act?.(page);
        await page.waitForTimeout(800);
        await page.screenshot({ path: path.join(dir, `${screen.name}-${width}.png`), fullPage: true });
        await context.close();
      }
  } finally {
    await browser.close();
    await t.close();
  }
}

async function compare(before: string, after: string) {
  let differ = false;
  for (const file of fs.readdirSync(before).filter((f) => f.endsWith('.png'))) {
    const [a, b] = await Promise.all(
      [before, after].map((dir) =>
        sharp(path.join(dir, file)).ensureAlpha().raw().toBuffer({ resolveWithObject: true }),
      ),
    );
    if (!a || !b) continue;
    if (a.info.width !== b.info.width || a.info.height !== b.info.height) {
      differ = true;
      console.log(`${file}: size ${a.info.width}×${a.info.height} → ${b.info.width}×${b.info.height}`);
      continue;
    }
    let pixels = 0;
    for (let i = 0; i < a.data.length; i += 4) if (a.data.readUInt32LE(i) !== b.data.readUInt32LE(i)) pixels++;
    if (pixels) differ = true;
    console.log(`${file}: ${pixels} of ${a.info.width * a.info.height} pixels differ`);
  }
  if (differ) process.exit(1);
}

const args = process.argv.slice(2);
if (args[0] === '--compare') await compare(args[1]!, args[2]!);
else if (args[0]) await take(args[0]);
else console.error('Usage: node bench/screenshots.ts DIR | --compare BEFORE AFTER');
