import { afterAll, afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { setLanguage, shownLanguage } from '../lib/language.ts';

// The files of a worker share its modules (vite.config.ts): each test leaves the page, the storage, the
// notices and the language as a fresh file finds them.
afterEach(async () => {
  cleanup();
  notifications.clean();
  if (i18n.isInitialized && i18n.language !== 'en') await i18n.changeLanguage('en');
  if (shownLanguage() !== 'en') await setLanguage('en');
  localStorage.clear();
});
// And each file leaves no stubbed global, spy or fake clock to the next.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Mantine needs these browser APIs, which jsdom lacks.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
})) as unknown as typeof window.matchMedia;
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= () => {};
// Textarea's autosize listens for web fonts loading.
if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget() });
