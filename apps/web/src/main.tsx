import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/first-screens.ts';
import './lib/i18n.ts';
import { startLanguageSync } from './lib/language-sync.ts';
import { App } from './app/App.tsx';

startLanguageSync();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
