import { lazy, Suspense, useState } from 'react';
import { MantineProvider, createTheme } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ApiError } from '../lib/api.ts';
import { createAppRouter } from './router.tsx';

const theme = createTheme({ primaryColor: 'green', defaultRadius: 'md' });

// The toast container (and its transition library) loads with the first toast: most first visits show
// none, and the sign-in page must fit its byte budget on 2G (issue 13). Toasts shown before it arrives
// wait in the store and appear with it.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));
function Toasts() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" autoClose={10_000} limit={10} />
    </Suspense>
  );
}

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
  return (
    <MantineProvider theme={theme}>
      <Toasts />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
