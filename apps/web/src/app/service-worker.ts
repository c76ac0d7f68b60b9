import { cacheAppFiles, onUnmeteredNetwork } from '../lib/app-files.ts';
import { whenSettled } from '../lib/when-settled.ts';

/**
 * Registers the service worker (src/sw.ts) once the page has settled (lib/when-settled.ts): its install
 * precaches the shell and the first screens, which is for the next visit, not for the screen now opening.
 * On Wi-Fi (where the browser says so) it then fetches the rest of the app too (docs/decisions/0037).
 */
export function registerServiceWorker() {
  // The development server builds no worker.
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void whenSettled()
    .then(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }))
    .then(() => navigator.serviceWorker.ready)
    .then(() => (onUnmeteredNetwork() ? cacheAppFiles('all') : null))
    // A browser that refuses one (a private window, an address that is not https) still runs Kutu online.
    .catch(() => undefined);
}
