import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from 'react';
import { MantineProvider } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { BrowserRouter, useLocation } from 'react-router';
import '../styles/first-screens.ts';
import '../lib/i18n.ts';
import { clearNoticesOnNavigation, NOTICE_MS, toastsNeeded } from '../lib/notify.ts';
import { AppRoutes } from './router.tsx';
import { RouterNavigation } from './RouterNavigation.tsx';
import { cssVariablesResolver, PHONE_QUERY, theme } from '../config/theme.ts';
import toastClasses from './Toasts.module.css';

// src/main.tsx loads the app with this module: the screen's files start before the first render.
export { preloadScreen } from './router.tsx';

// The toast package (its store, this container, the transition library) loads with the first toast
// (lib/notify.ts): most first visits show none, and every route's bytes count on 2G (decision 0016).
const Notifications = lazy(() => import('../lib/toasts.ts').then((m) => ({ default: m.Notifications })));
// One notice at a time: on a phone at the top, below the top bar, so it never covers the end of a form or
// its button (decision 0041); on a wide screen at the bottom right, beside the content (decision 0018).
function Toasts() {
  const phone = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
  const needed = useSyncExternalStore(toastsNeeded.subscribe, toastsNeeded.get, () => false);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications
        position={phone ? 'top-center' : 'bottom-right'}
        autoClose={NOTICE_MS}
        limit={1}
        classNames={{ root: toastClasses.root }}
      />
    </Suspense>
  );
}

/** A notice belongs to the screen that raised it (decision 0018). */
function ClearNoticesOnNavigation() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    clearNoticesOnNavigation();
  }, [pathname]);
  return null;
}

export function App() {
  return (
    // Every CSS variable, Mantine's defaults included: default-css-variables.css is not downloaded
    // (styles/first-screens.ts).
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} deduplicateCssVariables={false}>
      <Toasts />
      <BrowserRouter>
        <ClearNoticesOnNavigation />
        <RouterNavigation>
          <AppRoutes />
        </RouterNavigation>
      </BrowserRouter>
    </MantineProvider>
  );
}
