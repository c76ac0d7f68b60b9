import { onlineManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api.ts';

// Query assumes it is online until an event says otherwise; a page opened with no signal would then
// fail its queries and hide the saved offline copy behind an error instead of waiting for the network.
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);

/**
 * The account screens' query cache, created with the account shell that provides it: the screens
 * before sign-in do not download TanStack Query (decision 0016), and signing in reloads the page.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
    },
  },
});
