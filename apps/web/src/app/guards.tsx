import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Alert } from '@mantine/core';
import type { Role } from '@kutu/contract';
import { session } from '../lib/session.ts';
import { routes } from '../config/routes.ts';
import { useSession } from '../lib/use-session.ts';
import { useTranslation } from 'react-i18next';

/**
 * A protected route: without a token, remember where the user wanted to go and send them to sign in; but
 * not the page the deleted account was on (its profile tab was the next account's first screen).
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { access } = useSession();
  const location = useLocation();
  if (!access) {
    if (!session.accountDeleted()) session.saveReturnTo(location.pathname + location.search + location.hash);
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
