import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { RouterNavigation } from '../app/RouterNavigation.tsx';
import '../lib/i18n.ts';
import { accountStringsReady } from '../lib/account-strings.ts';
import '../lib/staff-strings.ts';
import '../lib/fields-strings.ts';

// Pages render here without the account shell, which brings their strings in the app (English's are fetched).
await accountStringsReady;

/** Renders a component with the app's providers, at a given route. */
export function renderWithProviders(ui: ReactNode, { route = '/' } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[route]}>
          <RouterNavigation>{ui}</RouterNavigation>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}
