import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/first-screens.ts';
import './lib/i18n.ts';
// In the entry, not lazily loaded chunks: the sign-in screen (app/screen-addresses.ts, SCREENS_IN_ENTRY).
import './app/layout/AuthLayout.tsx';
import './features/auth/pages/LoginPage.tsx';
import { startLanguageSync } from './lib/language-sync.ts';
import { App } from './app/App.tsx';
import { preloadScreen } from './app/router.tsx';
import { registerServiceWorker } from './app/service-worker.ts';

startLanguageSync();
preloadScreen(window.location.pathname);
registerServiceWorker();

// A transition lets React render the first screen in slices of a few milliseconds instead of one long
// task, so a slow phone stays responsive while it starts (Lighthouse's total blocking time, decision 0016).
const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
