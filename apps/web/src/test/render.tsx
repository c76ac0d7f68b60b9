import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { RouterNavigation } from '../app/RouterNavigation.tsx';
import '../lib/i18n.ts';
import { accountStringsReady } from '../lib/account-strings.ts';
import { screenStringsReady as staffStrings } from '../lib/staff-strings.ts';
import { screenStringsReady as fieldsStrings } from '../lib/fields-strings.ts';
import { screenStringsReady as communityStrings } from '../lib/community-strings.ts';
import { screenStringsReady as consultationsStrings } from '../lib/consultations-strings.ts';
import { screenStringsReady as outbreakStrings } from '../lib/outbreak-strings.ts';

// Pages render here without the account shell, which brings their strings in the app (English's are fetched).
await Promise.all([
  accountStringsReady,
  staffStrings,
  fieldsStrings,
  communityStrings,
  consultationsStrings,
  outbreakStrings,
]);

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
