import { useSyncExternalStore } from 'react';
import type { UserRecord } from '@kutu/contract';
import { session } from './session.ts';

export function useSession() {
  const access = useSyncExternalStore(session.subscribe, session.accessToken);
  const userJson = useSyncExternalStore(session.subscribe, () => localStorage.getItem('user'));
  // Parse from the JSON string so the snapshot stays referentially stable between renders.
  const user = userJson ? session.user() : null;
  return { access, user, role: user?.role ?? null };
}

/**
 * One field of the signed-in user (a string or number, never an object): unlike useSession, a component
 * renders again only when that field changes, not each time the stored profile is refreshed. The shell
 * uses it so that the profile's refresh re-renders one name in the top bar, not every screen (decision 0016).
 */
export function useSessionField<T extends string | number | null>(select: (user: UserRecord | null) => T): T {
  return useSyncExternalStore(session.subscribe, () => select(session.user()));
}
