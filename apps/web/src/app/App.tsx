import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { MantineProvider } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ApiError } from '../lib/api.ts';
import { clearNoticesOnNavigation, NOTICE_MS, toastsNeeded } from '../lib/notify.ts';
import { createAppRouter } from './router.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

// The toast package (its store, this container, the transition library) loads with the first toast
// (lib/notify.ts): most first visits show none, and every route's bytes count on 2G (issue 13).
const Notifications = lazy(() => import('../lib/toasts.ts').then((m) => ({ default: m.Notifications })));
// One notice at a time, at the bottom so it never covers the top bar or a page title (decision 0018).
function Toasts() {
  const phone = useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
  const needed = useSyncExternalStore(toastsNeeded.subscribe, toastsNeeded.get, () => false);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position={phone ? 'bottom-center' : 'bottom-right'} autoClose={NOTICE_MS} limit={1} />
    </Suspense>
  );
}

// Query assumes it is online until an event says otherwise; a page opened with no signal would then
// fail its queries and hide the saved offline copy behind an error instead of waiting for the network.
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);

export function App() {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
          },
        },
      }),
  );
  const [router] = useState(createAppRouter);
  useEffect(() => {
    let path = router.state.location.pathname;
    return router.subscribe((state) => {
      if (state.location.pathname === path) return;
      path = state.location.pathname;
      clearNoticesOnNavigation();
    });
  }, [router]);
  return (
    // Every CSS variable, Mantine's defaults included: default-css-variables.css is not downloaded
    // (styles/first-screens.ts).
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} deduplicateCssVariables={false}>
      <Toasts />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
