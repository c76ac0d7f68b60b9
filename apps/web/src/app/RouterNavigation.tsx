import { type ReactNode, useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { NavigationContext } from '../lib/navigation.ts';

/** The sign-in screen's links and query (lib/navigation.ts) through React Router, inside the full app. */
export function RouterNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { search } = useLocation();
  const go = useCallback((to: string) => void navigate(to), [navigate]);
  return <NavigationContext value={useMemo(() => ({ go, search }), [go, search])}>{children}</NavigationContext>;
}
