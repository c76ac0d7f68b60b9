import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutbreakSettingsReply, UserRecord } from '@kutu/contract';
import { session } from '../../lib/session.ts';
import { useSession } from '../../lib/use-session.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeServer } from '../../test/fakeServer.ts';
import { OutbreakSettingsCard } from './OutbreakSettings.tsx';

afterEach(() => vi.unstubAllGlobals());

const farmer: UserRecord = {
  id: 7,
  username: 'nakato',
  email: null,
  role: 'farmer',
  phone: '+256772123456',
  language: 'en',
  district: 'UG-219',
  accountComplete: true,
  needsDistrict: false,
  profile: null,
  farmer: { farm_location: 'Bukedea', farm_size: 1, crop_types: ['MAIZE'], sms_alerts: true, voice_warnings: false },
  expert: null,
  vetting: null,
  account: {
    accountNumber: 'KU-000007',
    accountType: 'Farmer',
    isActivated: true,
    isPhoneVerified: true,
    isEmailVerified: false,
    hasPassword: false,
    website: null,
  },
};

/** The card as the profile shows it: for the signed-in user, as stored. */
function Card() {
  const { user } = useSession();
  return user ? <OutbreakSettingsCard user={user} /> : null;
}

describe('OutbreakSettingsCard', () => {
  it('turns rust warning calls on and off with their own switch, leaving SMS alerts as they are', async () => {
    session.signIn({ access: 'a', refresh: 'r', user: farmer });
    let voice = false;
    const calls = fakeServer((call) => {
      voice = (call.body as { voice_warnings?: boolean }).voice_warnings ?? voice;
      const reply: OutbreakSettingsReply = {
        district: 'UG-219',
        sms_alerts: true,
        voice_warnings: voice,
        needs_district: false,
      };
      return { status: 200, body: reply };
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<Card />);
    const calling = screen.getByRole('switch', { name: /^Call me with rust warnings/ }) as HTMLInputElement;
    expect(calling.checked).toBe(false);
    expect(screen.getByText(/Kutu also calls and says what to do/)).toBeTruthy();

    await user.click(calling);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/outbreak/settings/', body: { voice_warnings: true } });
    await waitFor(() => expect(session.user()?.farmer?.voice_warnings).toBe(true));
    await waitFor(() => expect(calling.checked).toBe(true));
    expect(session.user()?.farmer?.sms_alerts).toBe(true);

    await waitFor(() => expect(calling.disabled).toBe(false));
    await user.click(calling);
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]?.body).toEqual({ voice_warnings: false });
    await waitFor(() => expect(calling.checked).toBe(false));
  });
});
