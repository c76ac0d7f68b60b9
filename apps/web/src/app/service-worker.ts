import { whenSettled } from '../lib/when-settled.ts';

/**
 * Registers the service worker (src/sw.ts) once the page has settled (lib/when-settled.ts): its install
 * precaches the whole app, which is for the next visit, not for the screen now opening.
 */
export function registerServiceWorker() {
  // The development server builds no worker.
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void whenSettled()
    .then(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }))
    // A browser that refuses one (a private window, an address that is not https) still runs Kutu online.
    .catch(() => undefined);
}
