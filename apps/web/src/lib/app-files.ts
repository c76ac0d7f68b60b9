/**
 * The app's own files beyond what the service worker precaches (docs/decisions/0037): the worker keeps
 * every other file of the release in `LATER_CACHE` once it was fetched, and downloads a whole set when
 * asked: `first` (the account's first screens, once signed in), `offline` (what the first screens can import, the offline engine among it) when offline use is
 * set up, `all` on Wi-Fi or when the farmer asks in the profile. Shared by the worker and the page.
 */

/** dist/app-files.json, written by the build (scripts/precache-first.ts); fetched when a set is downloaded. */
export const APP_FILES_FILE = 'app-files.json';
/** The worker's cache of the files it did not precache (this release's only: older ones are dropped). */
export const LATER_CACHE = 'kutu-app-files';
/** The message that asks the worker to download a set; the reply comes on the message's port. */
export const CACHE_FILES_MESSAGE = 'kutu-cache-files';

export type AppFilesSet = 'first' | 'offline' | 'all';

export interface AppFiles {
  /** Paths ("/assets/…") of the first screens with their static imports and the forms' schemas. */
  first: string[];
  /** Paths ("/assets/…") of what the first screens import, statically or on demand. */
  offline: string[];
  /** Every file of the release under /assets/ (but onnxruntime's wasm), with its size in bytes. */
  all: { url: string; bytes: number }[];
}

/** What a download of a set did: files and bytes fetched now, files that failed. */
export interface CachedFiles {
  fetched: number;
  bytes: number;
  failed: number;
}

interface NetworkInformation {
  type?: string;
}

/** Whether the browser says the connection is not metered (Wi-Fi or a cable); false where it cannot tell. */
export function onUnmeteredNetwork(): boolean {
  const type = (navigator as Navigator & { connection?: NetworkInformation }).connection?.type;
  return type === 'wifi' || type === 'ethernet';
}

/**
 * Asks the active service worker to download `set` into its cache; null where there is no worker (the
 * development server, a browser that refused one) or it did not answer in time.
 */
export async function cacheAppFiles(set: AppFilesSet, timeoutMs = 120_000): Promise<CachedFiles | null> {
  if (!('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  const worker = registration?.active;
  if (!worker) return null;
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), timeoutMs);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(event.data as CachedFiles);
    };
    worker.postMessage({ type: CACHE_FILES_MESSAGE, set }, [channel.port2]);
  });
}

/**
 * Once signed in, the account's first screens (the `first` set: dashboard, diagnosis, history, fields and
 * walk, profile) for use with no signal: not precached on a first visit, which is mostly signed out
 * (decision 0092). Waits for the worker to be active; the worker fetches only what it does not hold yet.
 */
export async function cacheFirstScreens(): Promise<CachedFiles | null> {
  if (!('serviceWorker' in navigator)) return null;
  await navigator.serviceWorker.ready;
  return cacheAppFiles('first');
}
