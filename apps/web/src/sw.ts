// The service worker (Workbox, built by vite-plugin-pwa; issue 13, decision 0016). It precaches the app
// and answers every address with index.html plus that address's preload links, as the server does, so a
// phone opening Kutu from its home screen does not spend ~300 ms of main thread on Vite's preload helper.
import { type ScreenPreloads, SCREEN_PRELOADS_FILE, withScreenPreloads } from '@kutu/contract/screen-preloads';
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: { __WB_MANIFEST: (string | PrecacheEntry)[]; skipWaiting(): Promise<void> };

// A new release's worker takes over at once (decision 0016): an old tab that then misses a chunk gets
// the "Kutu was updated" screen. vite-plugin-pwa sets this only for its own injectRegister 'auto'; the app
// registers this worker itself (app/service-worker.ts).
void self.skipWaiting();
clientsClaim();

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

let preloads: Promise<ScreenPreloads> | undefined;
const screenPreloads = () =>
  (preloads ??= matchPrecache(`/${SCREEN_PRELOADS_FILE}`).then((res) => (res ? res.json() : {})));

registerRoute(
  new NavigationRoute(
    async ({ url }) => {
      const page = await matchPrecache('/index.html');
      if (!page) return Response.error();
      const html = withScreenPreloads(await page.text(), url.pathname, await screenPreloads().catch(() => ({})));
      return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    },
    { denylist: [/^\/api\//] },
  ),
);
