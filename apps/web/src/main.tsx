import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/first-screens.ts';
import './lib/i18n.ts';
import { App } from './app/App.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
