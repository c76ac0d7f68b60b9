import { dehydrate, hydrate, type DehydratedState, type Query, type QueryClient } from '@tanstack/react-query';

/**
 * The last data a farmer saw (dashboard, analyses, advice, bookings, fields), kept on the phone so it stays
 * readable with no signal (decision 0016). TanStack Query's own dehydrate/hydrate with a small localStorage
 * persister: the persister packages matching our query-core are not published, and an older one
 * nests a second copy of the query library. localStorage rather than IndexedDB: the saved copy is a
 * few tens of KiB, restoring it synchronously means the first render already shows it, and logout's
 * `localStorage.clear()` removes it with the tokens (a shared phone shows nothing to the next person).
 */
export const SAVED_QUERIES_KEY = 'savedQueries';

interface Saved {
  userId: number;
  savedAt: number;
  state: DehydratedState;
}

/**
 * Only what a farmer reads in the field; never images, community, review or training data. The outbreak
 * map and its district trends are counts under the privacy rule (decision 0033), kept so the map reads
 * offline; the expert's district table is not.
 */
export function isSavedQuery(key: readonly unknown[]): boolean {
  const [root, part] = key;
  // A farmer's fields (their list, each field and its walks): the walk works with no signal.
  if (root === 'dashboard' || root === 'education-resources' || root === 'fields') return true;
  if (root === 'outbreak') return part === 'map' || part === 'trend' || part === 'forecast';
  if (root === 'analysis') return part === 'list' || part === 'detail';
  return root === 'consultations' && part === 'bookings';
}

const shouldDehydrateQuery = (q: Query) => q.state.status === 'success' && isSavedQuery(q.queryKey);

/** When the saved copy (or a save in this tab) was last written; null when nothing is saved. */
let lastSavedAt: number | null = null;
const listeners = new Set<() => void>();
export const savedQueries = {
  lastSavedAt: () => lastSavedAt,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
function setLastSavedAt(at: number | null) {
  lastSavedAt = at;
  for (const l of listeners) l();
}

function read(): Saved | null {
  const raw = localStorage.getItem(SAVED_QUERIES_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as Saved;
  } catch {
    return null;
  }
}

/** Writes the user's saveable queries now. A full storage quota only costs the offline copy. */
export function saveQueries(client: QueryClient, userId: number, now = Date.now()): void {
  const state = dehydrate(client, { shouldDehydrateQuery });
  const saved: Saved = { userId, savedAt: now, state };
  try {
    localStorage.setItem(SAVED_QUERIES_KEY, JSON.stringify(saved));
    setLastSavedAt(now);
  } catch (err) {
    console.warn('The offline copy could not be saved', err);
  }
}

/** Puts the user's saved copy into the cache (newer data already there wins); another user's copy is deleted. */
export function restoreQueries(client: QueryClient, userId: number): boolean {
  const saved = read();
  if (!saved) return false;
  if (saved.userId !== userId) {
    clearSavedQueries();
    return false;
  }
  hydrate(client, saved.state);
  // The copy is what the phone showed when it was saved: shown at once, and fetched again by the screen that
  // reads it (a result an expert has answered since must not wait out its fresh time; with no signal the
  // copy stays).
  const restored = new Set(saved.state.queries.map((q) => q.queryHash));
  void client.invalidateQueries({ predicate: (q) => restored.has(q.queryHash), refetchType: 'none' });
  setLastSavedAt(saved.savedAt);
  return true;
}

export function clearSavedQueries(): void {
  localStorage.removeItem(SAVED_QUERIES_KEY);
  setLastSavedAt(null);
}

/**
 * Saves the user's copy again (at most once a second) whenever a saveable query gets new data, and at
 * once if some arrived before it started: a screen's queries start with its code (router.tsx), so the
 * dashboard's can succeed before the shell's effect calls this; and when the page is left with a save waiting.
 */
export function persistQueries(client: QueryClient, userId: number, delayMs = 1000): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const saveSoon = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      saveQueries(client, userId);
    }, delayMs);
  };
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success' && isSavedQuery(event.query.queryKey)) saveSoon();
  });
  // A save still waiting is written when the page goes (a reload, a link followed, the app put away):
  // the next page would otherwise start from the copy before it.
  const saveWaiting = () => {
    if (!timer) return;
    clearTimeout(timer);
    timer = undefined;
    saveQueries(client, userId);
  };
  const onHidden = () => document.visibilityState === 'hidden' && saveWaiting();
  window.addEventListener('pagehide', saveWaiting);
  document.addEventListener('visibilitychange', onHidden);
  // lastSavedAt is the restored copy's time (restoreQueries ran first), so storage is not parsed again.
  const unsaved = (q: Query) => shouldDehydrateQuery(q) && q.state.dataUpdatedAt > (lastSavedAt ?? 0);
  if (client.getQueryCache().getAll().some(unsaved)) saveSoon();
  return () => {
    unsubscribe();
    window.removeEventListener('pagehide', saveWaiting);
    document.removeEventListener('visibilitychange', onHidden);
    if (timer) clearTimeout(timer);
  };
}
