import type { UserRecord } from '@kutu/contract';

/** The locally stored items of the spec: accessToken, refreshToken, user, signUpToken. */
const KEYS = {
  access: 'accessToken',
  refresh: 'refreshToken',
  user: 'user',
  signUpToken: 'signUpToken',
  returnTo: 'returnTo',
  accountDeleted: 'accountDeleted',
} as const;

type Listener = () => void;
const listeners = new Set<Listener>();
const emit = () => {
  for (const l of listeners) l();
};

export const session = {
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  accessToken: () => localStorage.getItem(KEYS.access),
  refreshToken: () => localStorage.getItem(KEYS.refresh),
  user(): UserRecord | null {
    const raw = localStorage.getItem(KEYS.user);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as UserRecord;
    } catch (err) {
      console.error('Stored user could not be read', err);
      return null;
    }
  },
  signIn(tokens: { access: string; refresh: string; user: UserRecord }) {
    localStorage.removeItem(KEYS.accountDeleted);
    localStorage.setItem(KEYS.access, tokens.access);
    localStorage.setItem(KEYS.refresh, tokens.refresh);
    localStorage.setItem(KEYS.user, JSON.stringify(tokens.user));
    emit();
  },
  setTokens(tokens: { access: string; refresh: string }) {
    localStorage.setItem(KEYS.access, tokens.access);
    localStorage.setItem(KEYS.refresh, tokens.refresh);
    emit();
  },
  setUser(user: UserRecord) {
    localStorage.setItem(KEYS.user, JSON.stringify(user));
    emit();
  },
  signOut() {
    localStorage.removeItem(KEYS.access);
    localStorage.removeItem(KEYS.refresh);
    localStorage.removeItem(KEYS.user);
    emit();
  },
  /**
   * Signs out after the account was deleted: sign-in says so (until someone signs in or up), and goes to
   * no page of the deleted account afterwards (RequireAuth keeps none while the flag is set).
   */
  signOutDeleted() {
    localStorage.setItem(KEYS.accountDeleted, '1');
    session.signOut();
    localStorage.removeItem(KEYS.returnTo);
  },
  accountDeleted: () => localStorage.getItem(KEYS.accountDeleted) === '1',
  signUpToken: () => localStorage.getItem(KEYS.signUpToken),
  /** A sign-up under way: a new account, so sign-in no longer says the last one was deleted. */
  setSignUpToken(token: string | null) {
    if (token) {
      localStorage.setItem(KEYS.signUpToken, token);
      localStorage.removeItem(KEYS.accountDeleted);
    } else localStorage.removeItem(KEYS.signUpToken);
  },
  /** The page a signed-out visitor wanted; login goes back there. */
  saveReturnTo(path: string) {
    localStorage.setItem(KEYS.returnTo, path);
  },
  takeReturnTo(): string | null {
    const path = localStorage.getItem(KEYS.returnTo);
    localStorage.removeItem(KEYS.returnTo);
    return path;
  },
};
