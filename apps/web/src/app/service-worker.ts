import { cacheAppFiles, onUnmeteredNetwork } from '../lib/app-files.ts';
import { whenSettled } from '../lib/when-settled.ts';

/** The web manifest the build writes (vite-plugin-pwa); index.html does not link it (vite.config.ts). */
export const WEB_MANIFEST = '/manifest.webmanifest';

/** Links the web manifest, which makes the app installable: the browser then fetches it and its icon. */
function linkWebManifest() {
  if (document.querySelector('link[rel="manifest"]')) return;
  const link = document.createElement('link');
  link.rel = 'manifest';
  link.href = WEB_MANIFEST;
  document.head.append(link);
}

/**
 * Registers the service worker (src/sw.ts) once the page has settled (lib/when-settled.ts): its install
 * precaches the shell and the first screens, which is for the next visit, not for the screen now opening.
 * On Wi-Fi (where the browser says so) it then fetches the rest of the app too (docs/decisions/0037).
 * The web manifest is linked then too: linked in index.html, Chromium fetched it and its 192 px icon
 * (6 KB, two requests) while the first screen's scripts were still arriving; installing is for later.
 */
export function registerServiceWorker() {
  // The development server builds no worker.
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void whenSettled()
    .then(() => {
      linkWebManifest();
      return navigator.serviceWorker.register('/sw.js', { scope: '/' });
    })
    .then(() => navigator.serviceWorker.ready)
    .then(() => (onUnmeteredNetwork() ? cacheAppFiles('all') : null))
    // A browser that refuses one (a private window, an address that is not https) still runs Kutu online.
    .catch(() => undefined);
}
