import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import '../lib/i18n.ts';
import { isChunkLoadError, RouteError } from './RouteError.tsx';

function renderFailingRoute(error: Error) {
  const router = createMemoryRouter([
    {
      errorElement: <RouteError />,
      children: [
        {
          path: '/',
          loader: () => {
            throw error;
          },
          element: <p>never</p>,
        },
      ],
    },
  ]);
  render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
}

describe('the route error boundary (issue 13)', () => {
  it('recognises failed chunk loads as the browsers word them', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/A-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/A-1.css'))).toBe(true);
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
  });

  it('explains a missing chunk in plain words with a reload button', async () => {
    renderFailingRoute(new TypeError('Failed to fetch dynamically imported module: /assets/A-1.js'));
    expect(await screen.findByRole('heading', { name: 'Kutu was updated' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.queryByText(/Unexpected Application Error|dynamically imported/)).toBeNull();
  });

  it('shows a general message for other errors', async () => {
    renderFailingRoute(new TypeError("Cannot read properties of undefined (reading 'x')"));
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });
});
