/**
 * Checks bench/bundle-size.ts's counting rule in a browser: loads routes cold in Chromium (a new
 * context, service worker blocked so its precache does not mix in), lets them settle, and compares the
 * scripts and styles requested under /assets/ with the files the bench counts for the route. "Missed"
 * (requested, not counted) would make the figure dishonest; "unused" (counted, not requested) is
 * harmless overcounting. Farmer and auth routes only (the built app's user is a farmer); a Kiswahili
 * and a Luganda load check that the language's files (its first part, and its account part on an
 * account route) are the only extra requests.
 *
 * It also sums what Chromium transfers for the route (Network.loadingFinished's encodedDataLength: bodies
 * as sent and each reply's headers; the API's JSON aside) and fails when that is more than bundle-size.ts's
 * transfer figure, or when a reply's headers are longer than its `REPLY_HEADER_BYTES`: the figure the
 * byte budget holds must not count less than the browser receives.
 *
 *   npm run build && node bench/bundle-requests.ts
 */
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startBuiltApp, webDist } from './built-app.ts';
import { measureRoutes, REPLY_HEADER_BYTES } from './bundle-size.ts';

const ROUTES: { url: string; page: string; signedIn?: boolean; language?: string }[] = [
  { url: '/auth', page: 'auth/pages/LoginPage.tsx' },
  { url: '/auth', page: 'auth/pages/LoginPage.tsx', language: 'sw' },
  { url: '/auth/forgot-password', page: 'auth/pages/ForgotPasswordPage.tsx' },
  { url: '/auth/signup', page: 'auth/pages/FarmerSignupPage.tsx' },
  { url: '/auth/expert-signup', page: 'auth/pages/ExpertSignupPage.tsx' },
  { url: '/auth/activation', page: 'auth/pages/ActivationPage.tsx' },
  { url: '/auth/verify-email', page: 'auth/pages/VerifyEmailPage.tsx' },
  { url: '/terms', page: 'static/pages/TermsPage.tsx' },
  { url: '/account', page: 'dashboard/pages/DashboardPage.tsx', signedIn: true },
  { url: '/account', page: 'dashboard/pages/DashboardPage.tsx', signedIn: true, language: 'lg' },
  { url: '/account/profile', page: 'profile/pages/ProfilePage.tsx', signedIn: true },
  { url: '/account/addresses/image-analysis', page: 'analysis/pages/UploadImagePage.tsx', signedIn: true },
  { url: '/account/addresses/analysis-history', page: 'analysis/pages/AnalysisHistoryPage.tsx', signedIn: true },
  { url: '/account/addresses/education-resources', page: 'analysis/pages/EducationResourcesPage.tsx', signedIn: true },
  { url: '/account/addresses/community-posts', page: 'community/pages/MakePostPage.tsx', signedIn: true },
  { url: '/account/addresses/slots', page: 'consultations/pages/SlotsPage.tsx', signedIn: true },
  { url: '/account/addresses/my-bookings', page: 'consultations/pages/MyBookingsPage.tsx', signedIn: true },
];

const { t, base, tokens } = await startBuiltApp();
const { routes } = measureRoutes(webDist);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
let missedAny = false;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
/** The longest headers of each kind of reply seen, against their allowance. */
const longest = {
  document: { bytes: 0, pathname: '' },
  plain: { bytes: 0, pathname: '' },
  hashed: { bytes: 0, pathname: '' },
};
try {
  for (const route of ROUTES) {
    const counted = routes.find((r) => r.page === `src/features/${route.page}`);
    if (!counted) throw new Error(`No bench figure for ${route.page}`);
    const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 390, height: 844 } });
    await context.addInitScript(
      ([signedIn, language, a, r, u]) => {
        if (language) localStorage.setItem('language', language);
        if (!signedIn) return;
        localStorage.setItem('accessToken', a);
        localStorage.setItem('refreshToken', r);
        localStorage.setItem('user', JSON.stringify(u));
      },
      [!!route.signedIn, route.language ?? '', tokens.access, tokens.refresh, tokens.user] as const,
    );
    const page = await context.newPage();
    const requested = new Set<string>();
    page.on('request', (req) => {
      const { pathname } = new URL(req.url());
      if (pathname.startsWith('/assets/') && /\.(js|css)$/.test(pathname)) requested.add(pathname.slice(1));
    });
    // Bytes on the wire per reply, the API's aside: headers (at the response) and the whole (when loaded).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const pathOf = new Map<string, string>();
    const bytesOf = new Map<string, number>();
    cdp.on('Network.responseReceived', (e) => {
      const { protocol, pathname } = new URL(e.response.url);
      if (!protocol.startsWith('http') || pathname.startsWith('/api/')) return;
      pathOf.set(e.requestId, pathname);
      const kind = pathname.startsWith('/assets/') ? 'hashed' : /\.\w+$/.test(pathname) ? 'plain' : 'document';
      if (e.response.encodedDataLength > longest[kind].bytes)
        longest[kind] = { bytes: e.response.encodedDataLength, pathname };
    });
    cdp.on('Network.loadingFinished', (e) => {
      const pathname = pathOf.get(e.requestId);
      if (pathname) bytesOf.set(pathname, (bytesOf.get(pathname) ?? 0) + e.encodedDataLength);
    });
    await page.goto(`${base}${route.url}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(1000);
    await context.close();
    const files = new Set(counted.files);
    const missed = [...requested].filter((f) => !files.has(f));
    const unused = counted.files.filter((f) => !requested.has(f));
    // The language files a phone adds (English's account part, or Kiswahili's or Luganda's parts) are in
    // the figure as the largest language's, and the terms page's document in the phone's language as the
    // largest document.
    const language = missed.filter((f) => /^assets\/(en|sw|lg|Terms(En|Sw|Lg))-/.test(f));
    // Parts the route loads on a choice or just after it shows (bundle-size's --on-demand list).
    const laterFiles = new Set(counted.onDemand.flatMap((d) => d.files));
    const later = missed.filter((f) => laterFiles.has(f) && !language.includes(f));
    const realMissed = missed.filter((f) => !language.includes(f) && !later.includes(f));
    if (realMissed.length) missedAny = true;
    // What the screen loaded, without the parts it loads later (the on-demand list, not in the figure).
    const transferred = [...bytesOf]
      .filter(([pathname]) => !later.includes(pathname.slice(1)))
      .reduce((a, [, bytes]) => a + bytes, 0);
    const undercounted = transferred > counted.transfer;
    if (undercounted) missedAny = true;
    console.log(
      `${route.url}${route.language ? ` (${route.language})` : ''}: ${requested.size} requested, ` +
        `missed ${realMissed.length ? realMissed.map((f) => path.basename(f)).join(', ') : 'none'}` +
        `${language.length ? `, language ${language.map((f) => path.basename(f)).join(', ')}` : ''}` +
        `${later.length ? `, after the screen (on-demand list) ${later.map((f) => path.basename(f)).join(', ')}` : ''}` +
        `, counted but not requested ${unused.length ? unused.map((f) => path.basename(f)).join(', ') : 'none'}` +
        `; transferred ${kib(transferred)} against ${kib(counted.transfer)} counted${undercounted ? ' (MORE THAN COUNTED)' : ''}`,
    );
  }
} finally {
  await browser.close();
  await t.close();
}
for (const kind of ['document', 'plain', 'hashed'] as const) {
  const over = longest[kind].bytes > REPLY_HEADER_BYTES[kind];
  if (over) missedAny = true;
  console.log(
    `longest headers of a ${kind} reply: ${longest[kind].bytes} B, ${longest[kind].pathname} (counted ${REPLY_HEADER_BYTES[kind]} B)${over ? ' MORE THAN COUNTED' : ''}`,
  );
}
if (missedAny) process.exit(1);
