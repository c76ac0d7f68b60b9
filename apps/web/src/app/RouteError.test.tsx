import { describe, expect, it } from 'vitest';
import { type ComponentType, lazy, Suspense } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import '../lib/i18n.ts';
import { isChunkLoadError, RouteErrorBoundary } from './RouteError.tsx';

function Screens({ Broken }: { Broken: ComponentType }) {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary pathname={pathname}>
      <Suspense fallback={<p>loading</p>}>
        <Routes>
          <Route path="/" element={<Broken />} />
          <Route path="/other" element={<p>Another screen</p>} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}

function renderFailingRoute(error: Error) {
  // A screen whose chunk cannot be loaded, as React.lazy sees it.
  const Broken = lazy(() => Promise.reject(error));
  render(
    <MantineProvider>
      <MemoryRouter>
        <Link to="/other">Elsewhere</Link>
        <Screens Broken={Broken} />
      </MemoryRouter>
    </MantineProvider>,
  );
}

describe('the route error boundary', () => {
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

  it('leaves the error behind when the user moves to another screen', async () => {
    renderFailingRoute(new TypeError('Failed to fetch dynamically imported module: /assets/A-1.js'));
    await screen.findByRole('heading', { name: 'Kutu was updated' });
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Another screen')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Kutu was updated' })).toBeNull();
  });
});
