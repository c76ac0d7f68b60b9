/**
 * What Chromium transfers on a first visit, the service worker's precache included (docs/decisions/0092):
 * for sign-in, sign-up and the home address, a new browser profile (Debian's chromium, service worker
 * allowed, 390×844, a phone on mobile data) opens the address and stays until the worker is active and
 * nothing has crossed the network for QUIET_MS. Every byte counts: the page's document, scripts, styles and
 * icons, its calls to the API, the worker's script and every file its install fetches.
 *
 * Counted at the server, on the sockets: each reply's bytes are what its socket's `bytesWritten` grew by
 * from the request to the reply's end (headers, body as sent, chunk framing). Chromium's DevTools Network
 * events on the page do not see the worker's fetches, and Playwright opens no DevTools session on a
 * service worker; the socket sees every reply whoever asked, and HTTP/1.1 sends one reply at a time on a
 * socket. The page's own DevTools sum (encodedDataLength) is printed beside as a check: it must equal the
 * server's count of the page's replies and its calls to the API. A reply is the worker's script when
 * Chromium sent it `Service-Worker: script`, the worker's fetch (its precache) when it is a fetch() with no
 * destination (`Sec-Fetch-Dest: empty`) outside /api/: the page fetches nothing else that way.
 *
 * bench/bundle-size.ts counts a route's screen from the build (files, index.html, favicon, headers): its
 * figure is printed beside, with what it leaves out (the API, the worker, its precache).
 *
 * `--list` prints every reply; `--enforce` exits 1 when a first visit transfers more than FIRST_VISIT_BUDGET.
 *
 *   npm run build && node bench/first-visit.ts [--list] [--enforce]
 */
import { chromium, type Page } from '@playwright/test';
import { measureRoutes } from './bundle-size.ts';
import { startBuiltApp, webDist } from './built-app.ts';
import { atLeast, ensure } from './measured.ts';

const QUIET_MS = 3000;
const KIB = 1024;
/** Decision 0092: what a first visit transfers, the worker's precache included, for any of these addresses. */
const FIRST_VISIT_BUDGET = 250 * KIB;

const ROUTES = [
  { name: 'sign-in', url: '/auth', page: 'src/features/auth/pages/LoginPage.tsx' },
  { name: 'sign-up', url: '/auth/signup', page: 'src/features/auth/pages/FarmerSignupPage.tsx' },
  { name: 'home', url: '/', page: 'src/features/auth/pages/LoginPage.tsx' },
] as const;

type Kind = 'page' | 'api' | 'worker' | 'precache';
interface Reply {
  url: string;
  kind: Kind;
  bytes: number;
}

const { t, base } = await startBuiltApp();
const { routes: counted } = measureRoutes(webDist);
let replies: Reply[] = [];
let open = 0;
let lastDone = Date.now();
t.app.server.on('request', (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
  const socket = req.socket;
  const before = socket.bytesWritten;
  const url = req.url ?? '';
  // The worker's own script comes with `Service-Worker: script`; what the worker fetches (its precache) is
  // a fetch() with no destination, as the page's only are its calls to the API.
  const kind: Kind =
    req.headers['service-worker'] === 'script'
      ? 'worker'
      : url.startsWith('/api/')
        ? 'api'
        : req.headers['sec-fetch-dest'] === 'empty'
          ? 'precache'
          : 'page';
  open += 1;
  const list = replies;
  res.on('close', () => {
    open -= 1;
    lastDone = Date.now();
    list.push({ url, kind, bytes: socket.bytesWritten - before });
  });
});

async function quiet(page: Page) {
  // The worker installs (its precache) and activates; then nothing crosses the network for QUIET_MS.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const started = Date.now();
  while (open > 0 || Date.now() - lastDone < QUIET_MS) {
    ensure(Date.now() - started < 120_000, 'the network growing quiet within 2 minutes');
    await page.waitForTimeout(250);
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});
const kib = (n: number) => `${(n / KIB).toFixed(1)} KiB`;
const results: { name: string; total: number }[] = [];
try {
  console.log(
    'First visit: a new profile, the service worker allowed, a phone on mobile data (no "all files" download),\n' +
      "English. Bytes as sent on the server's sockets, headers and bodies. page: what the page asked for (the\n" +
      "document, scripts, styles, the favicon); devtools: Chromium's own sum of the page's replies, which must\n" +
      "equal page + api; bundle: bench/bundle-size.ts's transfer figure for the screen, which adds the largest\n" +
      "other language's parts (a Kiswahili or Luganda phone's; 'lang', none fetched here) and counts each\n" +
      "reply's headers at their allowance; worker: the service worker's script; precache: what its install\n" +
      'fetches (what the page loaded already comes from the HTTP cache, not the network).\n',
  );
  console.log(
    'route'.padEnd(8),
    'TOTAL'.padStart(10),
    'page'.padStart(10),
    'devtools'.padStart(10),
    'bundle'.padStart(10),
    'lang'.padStart(8),
    'api'.padStart(9),
    'worker'.padStart(9),
    'precache'.padStart(10),
    'replies'.padStart(8),
    ' budget',
  );
  for (const route of ROUTES) {
    replies = [];
    const context = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // A phone on mobile data: the app downloads every screen on Wi-Fi or ethernet only (app/service-worker.ts).
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
      connectionType: 'cellular4g',
    });
    let devtools = 0;
    cdp.on('Network.loadingFinished', (e) => {
      devtools += e.encodedDataLength;
    });
    await page.goto(`${base}${route.url}`);
    await quiet(page);
    const connection = await page.evaluate(
      () => (navigator as Navigator & { connection?: { type?: string } }).connection?.type ?? 'unknown',
    );
    // Desktop Chromium gives no connection type (only Android and ChromeOS do): the app then downloads no more.
    ensure(
      connection !== 'wifi' && connection !== 'ethernet',
      `a metered network as the page sees it (navigator.connection.type ${connection})`,
    );
    await context.close();
    const sum = (kind: Kind) => replies.filter((r) => r.kind === kind).reduce((a, r) => a + r.bytes, 0);
    const total = replies.reduce((a, r) => a + r.bytes, 0);
    atLeast(sum('page'), 1, `the page of ${route.url} loading`);
    // The server's count and Chromium's agree on what the page received (HTTP/1.1: the same bytes).
    ensure(
      Math.abs(devtools - sum('page') - sum('api')) <= 64,
      `the server's count of the page's replies (${sum('page') + sum('api')} B) matching Chromium's (${devtools} B)`,
    );
    atLeast(sum('worker'), 1, `the service worker's script loading on ${route.url}`);
    // Its install fetches index.html again at least (a file without a hash in its name is revalidated).
    atLeast(sum('precache'), 1, `the service worker's precache on ${route.url}`);
    const bundle = counted.find((r) => r.page === route.page);
    ensure(bundle !== undefined, `bench/bundle-size.ts counting ${route.page}`);
    results.push({ name: route.name, total });
    console.log(
      route.name.padEnd(8),
      kib(total).padStart(10),
      kib(sum('page')).padStart(10),
      kib(devtools).padStart(10),
      kib(bundle.transfer).padStart(10),
      kib(bundle.language).padStart(8),
      kib(sum('api')).padStart(9),
      kib(sum('worker')).padStart(9),
      kib(sum('precache')).padStart(10),
      String(replies.length).padStart(8),
      ` ${kib(FIRST_VISIT_BUDGET)}${total > FIRST_VISIT_BUDGET ? ' OVER' : ''}`,
    );
    if (process.argv.includes('--list'))
      for (const r of replies.sort((a, b) => b.bytes - a.bytes))
        console.log(`    ${r.kind.padEnd(9)} ${String(r.bytes).padStart(7)} ${r.url}`);
  }
} finally {
  await browser.close();
  await t.close();
}
const over = results.filter((r) => r.total > FIRST_VISIT_BUDGET);
if (over.length) {
  console.log(`Over ${kib(FIRST_VISIT_BUDGET)} on a first visit: ${over.map((r) => r.name).join(', ')}`);
  if (process.argv.includes('--enforce')) process.exit(1);
} else console.log(`Every first visit within ${kib(FIRST_VISIT_BUDGET)}.`);
