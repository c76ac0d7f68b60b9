import { useSyncExternalStore } from 'react';
import { session } from '../session.ts';

/**
 * The signed-in user's rows of one of the phone's stores (photos or walks waiting to be sent), kept in
 * memory for React: `reload()` reads them again, `use()` renders with them. A screen that subscribes
 * first loads them; nothing stored before or now keeps the same array, so nobody renders for nothing.
 */
export function userList<T>(load: (userId: number) => Promise<T[]>, order: (a: T, b: T) => number) {
  let items: T[] = [];
  const listeners = new Set<() => void>();
  async function reload() {
    const id = session.user()?.id ?? null;
    const loaded = id === null ? [] : await load(id);
    if (loaded.length === 0 && items.length === 0) return;
    items = loaded.sort(order);
    for (const l of listeners) l();
  }
  // Module-level, so React keeps one subscription per component: an inline function would re-subscribe
  // on every render, and each first subscription reloads and renders again (an endless loop).
  function subscribe(listener: () => void) {
    listeners.add(listener);
    if (listeners.size === 1) void reload();
    return () => listeners.delete(listener);
  }
  const snapshot = () => items;
  return { reload, snapshot, use: () => useSyncExternalStore(subscribe, snapshot) };
}
