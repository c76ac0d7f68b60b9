import { createContext, useContext } from 'react';

/**
 * How a screen that must also run without React Router (the sign-in screen, shown before the full app is
 * downloaded: src/main.tsx) moves to another address and reads its own query. The full app provides
 * React Router's (app/App.tsx); the sign-in entry provides one that loads the app first. Without either,
 * a full page load.
 */
export interface Navigation {
  go: (to: string) => void;
  /** The address's query, e.g. `?expired=1`. */
  search: string;
}

export const NavigationContext = createContext<Navigation>({
  go: (to) => window.location.assign(to),
  search: typeof window === 'undefined' ? '' : window.location.search,
});

export const useNavigation = () => useContext(NavigationContext);
