import { afterEach, beforeEach, expect, it, vi } from 'vitest';

let settle: () => void;
vi.mock('../lib/when-settled.ts', () => ({
  whenSettled: () => new Promise<void>((resolve) => (settle = resolve)),
}));

const register = vi.fn(() => Promise.resolve());

beforeEach(() => {
  Object.defineProperty(navigator, 'serviceWorker', { value: { register }, configurable: true });
  register.mockClear();
});

afterEach(() => {
  vi.unstubAllEnvs();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

it('a built app registers its worker once the page has settled, not before', async () => {
  vi.stubEnv('PROD', true);
  const { registerServiceWorker } = await import('./service-worker.ts');
  registerServiceWorker();
  await Promise.resolve();
  expect(register).not.toHaveBeenCalled();

  settle();
  await vi.waitFor(() => expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' }));
});

it('the development server, which builds no worker, registers none', async () => {
  vi.stubEnv('PROD', false);
  const { registerServiceWorker } = await import('./service-worker.ts');
  registerServiceWorker();
  expect(register).not.toHaveBeenCalled();
});
