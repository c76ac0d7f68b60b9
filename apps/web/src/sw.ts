// The service worker (Workbox, built by vite-plugin-pwa; decisions 0016 and 0037). It precaches
// the shell and the screens a farmer opens first, keeps every other file of the release once fetched (or
// all at once when asked: Wi-Fi, offline use, the profile), and answers every address with index.html plus
// that address's preload links, as the server does, so a phone opening Kutu from its home screen does not
// spend ~300 ms of main thread on Vite's preload helper.
import { shortLinkTargets } from '@kutu/contract/paths';
import { type ScreenPreloads, SCREEN_PRELOADS_FILE, withScreenPreloads } from '@kutu/contract/screen-preloads';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import {
  APP_FILES_FILE,
  type AppFiles,
  type AppFilesSet,
  CACHE_FILES_MESSAGE,
  type CachedFiles,
  LATER_CACHE,
} from './lib/app-files.ts';

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
  ports: readonly MessagePort[];
}
declare const self: {
  __WB_MANIFEST: (string | PrecacheEntry)[];
  location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
};

// A new release's worker takes over at once (decision 0016): an old tab that then misses a chunk gets
// the "Kutu was updated" screen. vite-plugin-pwa sets this only for its own injectRegister 'auto'; the app
// registers this worker itself (app/service-worker.ts).
void self.skipWaiting();
clientsClaim();

// The shell and the first screens (vite.config.ts filters the list: scripts/precache-first.ts).
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every other file of the app (names carry their content's hash) is kept once fetched, so a screen opened
// online once opens offline later. Only complete answers are kept: an old tab's missing chunk (404) must
// still reach the "Kutu was updated" screen. onnxruntime's wasm is stored by the offline feature itself.
const laterFiles = new CacheFirst({
  cacheName: LATER_CACHE,
  plugins: [new CacheableResponsePlugin({ statuses: [200] })],
});
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    request.method === 'GET' &&
    (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) &&
    !url.pathname.endsWith('.wasm'),
  laterFiles,
);

// The release's file list is not precached (decision 0092): a set is downloaded online, so it is fetched
// then, once per worker; a failed fetch is tried again next time.
let files: Promise<AppFiles> | undefined;
const appFiles = () =>
  (files ??= fetch(`/${APP_FILES_FILE}`, { cache: 'no-cache' })
    .then((res) => {
      if (!res.ok) throw new Error(String(res.status));
      return res.json() as Promise<AppFiles>;
    })
    .catch((err: unknown) => {
      files = undefined;
      throw err;
    }));

/** Downloads the files of `set` that neither cache holds yet, a few at a time. */
async function cacheSet(set: AppFilesSet): Promise<CachedFiles> {
  const list = await appFiles();
  const wanted = set === 'all' ? list.all.map((f) => f.url) : list[set];
  const cache = await caches.open(LATER_CACHE);
  const result: CachedFiles = { fetched: 0, bytes: 0, failed: 0 };
  const missing: string[] = [];
  for (const url of wanted) {
    if (!(await matchPrecache(url)) && !(await cache.match(url))) missing.push(url);
  }
  const worker = async () => {
    for (let url = missing.shift(); url; url = missing.shift()) {
      try {
        const res = await fetch(url, { credentials: 'same-origin' });
        if (res.status !== 200) throw new Error(String(res.status));
        const body = await res.clone().arrayBuffer();
        await cache.put(url, res);
        result.fetched += 1;
        result.bytes += body.byteLength;
      } catch {
        result.failed += 1;
      }
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  return result;
}

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; set?: AppFilesSet } | null;
  if (data?.type !== CACHE_FILES_MESSAGE || !data.set || !['first', 'offline', 'all'].includes(data.set)) return;
  const port = event.ports[0];
  event.waitUntil(
    cacheSet(data.set).then(
      (result) => port?.postMessage(result),
      () => port?.postMessage({ fetched: 0, bytes: 0, failed: -1 } satisfies CachedFiles),
    ),
  );
});

// Files of earlier releases are dropped once this one is in charge (the precache does the same for its own).
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(LATER_CACHE);
      const kept = await cache.keys();
      // A first install keeps nothing yet: the list is not fetched for nothing.
      if (kept.length === 0) return;
      const current = new Set((await appFiles()).all.map((f) => f.url));
      for (const request of kept) {
        const { pathname } = new URL(request.url);
        if (pathname.startsWith('/assets/') && !current.has(pathname)) await cache.delete(request);
      }
    })().catch(() => undefined),
  );
});

let preloads: Promise<ScreenPreloads> | undefined;
const screenPreloads = () =>
  (preloads ??= matchPrecache(`/${SCREEN_PRELOADS_FILE}`).then((res) => (res ? res.json() : {})));

/** index.html with the preload links of `url`'s screen (what the server answers for a screen's address). */
async function shell(url: URL): Promise<Response> {
  const page = await matchPrecache('/index.html');
  if (!page) return Response.error();
  const html = withScreenPreloads(await page.text(), url.pathname, await screenPreloads().catch(() => ({})));
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}

// The short addresses of an SMS or email (`/a/7`, `/f/7`) are the server's: it sends them on to their screen
// (plugins/short-links.ts). Answered with the shell, they were a "Page not found" for anyone who had opened
// Kutu before. Offline the shell it is, and the router sends them on itself (router.tsx).
const shortLinks = shortLinkTargets.map(({ prefix }) => new RegExp(`^${prefix}\\d+$`));
const isShortLink = (url: URL) => url.origin === self.location.origin && shortLinks.some((r) => r.test(url.pathname));
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && isShortLink(url),
  async ({ request, url }) => {
    try {
      return await fetch(request);
    } catch {
      return shell(url);
    }
  },
);

registerRoute(new NavigationRoute(({ url }) => shell(url), { denylist: [/^\/api\//, ...shortLinks] }));
