import { StrictMode, startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { languageReady } from './lib/language.ts';
import { startLanguageSync } from './lib/language-sync.ts';
import { NavigationContext } from './lib/navigation.ts';
import { session } from './lib/session.ts';
import { registerServiceWorker } from './app/service-worker.ts';
import { SIGN_IN_ADDRESSES } from './app/screen-addresses.ts';

startLanguageSync();
registerServiceWorker();

const root = createRoot(document.getElementById('root')!);
// A transition lets React render the first screen in slices of a few milliseconds instead of one long
// task, so a slow phone stays responsive while it starts (Lighthouse's total blocking time, decision 0016).
const show = (screen: ReactNode) => startTransition(() => root.render(<StrictMode>{screen}</StrictMode>));

/**
 * The full app (Mantine, React Router, i18next) at `address` (the one open by default), its screen's files
 * already on their way (preload links).
 */
async function showApp(address?: string) {
  const { App, preloadScreen } = await import('./app/App.tsx');
  if (address) window.history.pushState(null, '', address);
  preloadScreen(window.location.pathname);
  show(<App />);
}

/**
 * The sign-in screen by itself (decision 0016's sign-in budget): what it needs is React, its own CSS and
 * strings, and the form library. A link out of it (sign-up, forgot password, enter the code) loads the
 * full app, then opens the address in it; offline without the app cached, the browser opens it.
 */
async function showSignIn() {
  if (window.location.pathname === '/') window.history.replaceState(null, '', `/auth${window.location.search}`);
  const [{ default: LoginPage }] = await Promise.all([import('./features/auth/pages/LoginPage.tsx'), languageReady]);
  const go = (to: string) => void showApp(to).catch(() => window.location.assign(to));
  show(
    <NavigationContext value={{ go, search: window.location.search }}>
      <LoginPage />
    </NavigationContext>,
  );
}

// A signed-in visitor is sent on from sign-in by the app's router (app/guards.tsx).
if (SIGN_IN_ADDRESSES.includes(window.location.pathname) && !session.accessToken()) void showSignIn();
else void showApp();
