import { useSyncExternalStore, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Alert } from '@mantine/core';
import type { Role, UserRecord } from '@kutu/contract';
import { session } from '../lib/session.ts';
import { routes } from './routes.ts';
import { useTranslation } from 'react-i18next';

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
 * uses it so that the profile's refresh re-renders one name in the top bar, not every screen (issue 13).
 */
export function useSessionField<T extends string | number | null>(select: (user: UserRecord | null) => T): T {
  return useSyncExternalStore(session.subscribe, () => select(session.user()));
}

/** A protected route: without a token, remember where the user wanted to go and send them to sign in. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { access } = useSession();
  const location = useLocation();
  if (!access) {
    session.saveReturnTo(location.pathname + location.search + location.hash);
    return <Navigate to={routes.auth.login} replace />;
  }
  return children;
}

/** Signed-in visitors have no business on the sign-in screens. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { access } = useSession();
  if (access) return <Navigate to={routes.dashboard} replace />;
  return children;
}

/** The server enforces roles; this only explains to a user who followed a link for the other role. */
export function RoleOnly({ role, children }: { role: Role; children: ReactNode }) {
  const { t } = useTranslation();
  const { role: current } = useSession();
  if (current && current !== role) {
    return (
      <Alert color="yellow" title={t('shell.roleOnly.title')}>
        {t(`shell.roleOnly.${role}`)}
      </Alert>
    );
  }
  return children;
}
