import type { CachedList, Coordinator } from '../adapters/coordinator.ts';
import type { Clock } from '../adapters/clock.ts';

/**
 * How long a cached page is served without news of a change. Writes drop pages at once (in every
 * process, through the coordinator); this only bounds a change whose notification was lost while a
 * process's listening connection was down (docs/decisions/0025).
 */
export const LIST_CACHE_TTL_MS = 5_000;
/**
 * Bytes of pages kept per list (their JSON's length, as loads report it), least recently used dropped
 * first: any signed-in user can ask for many pages (page sizes up to 200, filters), so the bound is
 * on size, not on the number of pages.
 */
export const LIST_CACHE_MAX_BYTES = 16 * 1024 * 1024;

export interface ListCache<V> {
  /**
   * The page cached under `key`, else `load()`'s, kept until the next change of the list, the TTL, or
   * the instant `load` reports (a page whose rows depend on the time), whichever comes first.
   */
  get(key: string, load: () => Promise<{ value: V; bytes: number; until?: number }>): Promise<V>;
  /** Forgets every page; a load that started before this is not kept (it may have read the old rows). */
  clear(): void;
}

export function createListCache<V>(
  now: () => number,
  ttlMs = LIST_CACHE_TTL_MS,
  maxBytes = LIST_CACHE_MAX_BYTES,
): ListCache<V> {
  const pages = new Map<string, { value: V; bytes: number; from: number; until: number }>();
  let bytes = 0;
  const drop = (key: string) => {
    const page = pages.get(key);
    if (!page) return;
    bytes -= page.bytes;
    pages.delete(key);
  };
  // Loads under way, shared by concurrent requests for the same page (one query, not one each).
  const loading = new Map<string, Promise<V>>();
  let generation = 0;

  return {
    async get(key, load) {
      const t = now();
      const hit = pages.get(key);
      // `from`: a clock set back (tests) must not be served a page computed for a later time.
      if (hit && hit.from <= t && t < hit.until) {
        pages.delete(key);
        pages.set(key, hit);
        return hit.value;
      }
      const pending = loading.get(key);
      if (pending) return pending;
      const started = generation;
      const promise = load().then((page) => {
        if (started === generation && page.bytes <= maxBytes) {
          drop(key);
          while (bytes + page.bytes > maxBytes) drop(pages.keys().next().value as string);
          const until = Math.min(t + ttlMs, page.until ?? Number.POSITIVE_INFINITY);
          pages.set(key, { value: page.value, bytes: page.bytes, from: t, until });
          bytes += page.bytes;
        }
        return page.value;
      });
      loading.set(key, promise);
      const forget = () => {
        if (loading.get(key) === promise) loading.delete(key);
      };
      promise.then(forget, forget);
      return promise;
    },

    clear() {
      generation += 1;
      pages.clear();
      bytes = 0;
      loading.clear();
    },
  };
}

/**
 * The per-process caches of list pages, one per `CachedList`, and the one way to say a list changed:
 * `changed` right after the write is committed drops this process's pages at once and tells every
 * other process through the coordinator (milliseconds on PostgreSQL's LISTEN/NOTIFY).
 */
export function createListCaches(
  coordinator: Coordinator,
  clock: Clock,
  log: (msg: string, err?: unknown) => void = () => {},
) {
  const caches = new Map<CachedList, ListCache<unknown>>();
  const cacheOf = (list: CachedList) => {
    let cache = caches.get(list);
    if (!cache) {
      cache = createListCache(() => clock.now().getTime());
      caches.set(list, cache);
    }
    return cache;
  };
  coordinator.on('list-changed', (e) => caches.get(e.list)?.clear());

  return {
    of: <V>(list: CachedList) => cacheOf(list) as ListCache<V>,

    async changed(list: CachedList): Promise<void> {
      caches.get(list)?.clear();
      // The write stands either way; other processes then catch up within the TTL.
      await coordinator.publish({ type: 'list-changed', list }).catch((err) => log(`could not announce ${list}`, err));
    },
  };
}
export type ListCaches = ReturnType<typeof createListCaches>;
