import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '@kutu/contract';
import { session } from '../../lib/session.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeServer } from '../../test/fakeServer.ts';
import { AccountLayout } from './AccountLayout.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** A farmer whose account was made before sign-up asked for a district. */
const farmer: UserRecord = {
  id: 41,
  username: 'okello',
  email: null,
  role: 'farmer',
  phone: '+256772123400',
  language: 'en',
  district: null,
  accountComplete: true,
  needsDistrict: true,
  profile: null,
  farmer: { farm_location: 'Mbale', farm_size: 1, crop_types: ['MAIZE'], sms_alerts: true, voice_warnings: false },
  expert: null,
  vetting: null,
  account: {
    accountNumber: 'KU-000041',
    accountType: 'Farmer',
    isActivated: true,
    isPhoneVerified: true,
    isEmailVerified: false,
    hasPassword: false,
    website: null,
  },
};

function shell() {
  fakeServer(({ url }) =>
    url.includes('/api/auth/me/')
      ? { status: 200, body: farmer }
      : { status: 200, body: { results: [], count: 0, next: null, previous: null, unread: 0 } },
  );
  return renderWithProviders(
    <Routes>
      <Route path="/account" element={<AccountLayout />}>
        <Route index element={<p>the dashboard</p>} />
      </Route>
    </Routes>,
    { route: '/account' },
  );
}

describe("the dashboard's district question", () => {
  it('asks at once, and brings the district form only when the farmer chooses to answer', async () => {
    session.signIn({ access: 'a', refresh: 'r', user: farmer });
    const user = userEvent.setup({ delay: null });
    shell();
    expect(await screen.findByRole('heading', { name: 'Which district is your farm in?' })).toBeTruthy();
    expect(screen.getByText('the dashboard')).toBeTruthy();
    // Not built with the dashboard: the country switch, the search and the list of districts.
    expect(screen.queryByTestId('district-select')).toBeNull();
    expect(screen.queryByRole('radio', { name: 'Kenya' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Choose' }));
    expect(await screen.findByTestId('district-select', {}, { timeout: 10_000 })).toBeTruthy();
    // The farm location typed at sign-up names the district the form offers.
    expect(screen.getByRole('radio', { name: 'Uganda' })).toBeTruthy();
  }, 30_000);

  it('"Not now" puts it away for this farmer on this phone', async () => {
    session.signIn({ access: 'a', refresh: 'r', user: farmer });
    const user = userEvent.setup({ delay: null });
    shell();
    await user.click(await screen.findByRole('button', { name: 'Not now' }));
    expect(screen.queryByTestId('district-prompt')).toBeNull();
    expect(localStorage.getItem(`districtPromptSeen:${farmer.id}`)).toBe('1');
  }, 30_000);
});
