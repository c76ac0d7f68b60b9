import { act } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '@kutu/contract';
import { renderWithProviders } from '../test/render.tsx';
import { session } from '../lib/session.ts';
import { RequireAuth } from './guards.tsx';

const user = { id: 7, username: 'nakato', role: 'farmer' } as UserRecord;

/** An account page behind RequireAuth, and the sign-in screen it sends a signed-out visitor to. */
const screens = (
  <Routes>
    <Route path="/account/*" element={<RequireAuth>account page</RequireAuth>} />
    <Route path="/auth" element={<p>sign in</p>} />
  </Routes>
);

// Deleted and signed up again in one browser: sign-in still said "Your account and data have been deleted",
// and the new account's first sign-in opened the old account's profile tab.
describe('after an account is deleted', () => {
  it('keeps no page of the deleted account to go back to', () => {
    session.signIn({ access: 'a', refresh: 'r', user });
    renderWithProviders(screens, { route: '/account/profile?tab=data' });
    act(() => session.signOutDeleted());
    expect(session.accountDeleted()).toBe(true);
    expect(session.takeReturnTo()).toBeNull();
  });

  it('stops saying so once a new sign-up starts', () => {
    session.signOutDeleted();
    session.setSignUpToken('sign-up-token');
    expect(session.accountDeleted()).toBe(false);
  });

  it('still keeps the page a signed-out visitor wanted', () => {
    renderWithProviders(screens, { route: '/account/addresses/my-bookings' });
    expect(session.takeReturnTo()).toBe('/account/addresses/my-bookings');
  });
});
