import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { ConsentState, UserRecord } from '@kutu/contract';
import { session } from '../../../lib/session.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { apiError, fakeNetwork, json, type Sent } from '../../../test/fakeServer.ts';
import ProfilePage from './ProfilePage.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  notifications.clean();
  notifications.cleanQueue();
});

const farmer: UserRecord = {
  id: 7,
  username: 'nakato',
  email: null,
  role: 'farmer',
  phone: '+256772123456',
  language: 'en',
  district: 'UG-208',
  accountComplete: true,
  needsDistrict: false,
  profile: null,
  farmer: { farm_location: 'Mbale', farm_size: 2.5, crop_types: ['MAIZE'], sms_alerts: true, voice_warnings: false },
  expert: null,
  vetting: null,
  account: {
    accountNumber: 'KU-000007',
    accountType: 'Farmer',
    isActivated: true,
    isPhoneVerified: true,
    isEmailVerified: false,
    hasPassword: true,
    website: null,
  },
};
const given = (granted: boolean) => ({
  granted,
  at: '2026-11-20T08:00:00.000Z',
  channel: 'web' as const,
  text_version: '2026-11-v1',
});
const consents: ConsentState = { service: given(true), sms: given(true), training: given(false) };

/** The server as the My data tab meets it; `extra` answers the privacy calls a test is about. */
function server(extra: (sent: Sent) => Response | undefined, me: UserRecord = farmer) {
  return fakeNetwork((sent) => {
    const answer = extra(sent);
    if (answer) return answer;
    if (sent.url.includes('/api/privacy/consents/')) return json(consents);
    return json(me);
  });
}

describe('Profile: My data', () => {
  it('downloads the archive and changes the training choice', async () => {
    session.signIn({ access: 'a', refresh: 'r', user: farmer });
    const sent = server((s) => {
      if (s.url.includes('/api/privacy/export/')) {
        return new Response(new Uint8Array([31, 139, 8]), {
          headers: {
            'content-type': 'application/gzip',
            'content-disposition': 'attachment; filename="kutu-my-data-2026-11-26.tar.gz"',
          },
        });
      }
      if (s.method === 'PUT') return json({ ...consents, training: { ...given(true), channel: 'profile' } });
      return undefined;
    });
    const createUrl = vi.fn(() => 'blob:archive');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ProfilePage />, { route: '/account/profile?tab=data' });

    await user.click(await screen.findByRole('button', { name: 'Download my data' }, { timeout: 15_000 }));
    await waitFor(() => expect(clicked).toEqual(['kutu-my-data-2026-11-26.tar.gz']));
    const download = sent.find((s) => s.url.includes('/api/privacy/export/'));
    expect(download?.headers.authorization).toBe('Bearer a');

    const training = await screen.findByRole('switch', { name: /train Kutu's model/ });
    expect((training as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('switch', { name: /SMS from Kutu/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(training);
    await waitFor(() => expect(sent.some((s) => s.method === 'PUT')).toBe(true));
    expect(sent.find((s) => s.method === 'PUT')?.body).toEqual({ training: true });
    expect(await screen.findByText('Your choice is saved.')).toBeTruthy();
    await waitFor(() => expect((training as HTMLInputElement).checked).toBe(true));
  });

  it('deletes the account after the password, shows a wrong one under its field, then signs out', async () => {
    session.signIn({ access: 'a', refresh: 'r', user: farmer });
    let tries = 0;
    const sent = server((s) => {
      if (!s.url.includes('/api/privacy/account/delete/')) return undefined;
      tries += 1;
      const refused = apiError(400, 'BAD_REQUEST', 'Your current password is not correct', {
        password: 'Your current password is not correct',
      });
      return tries === 1 ? json(refused.body, 400) : json({ message: 'Your account and your data are deleted.' });
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ProfilePage />, { route: '/account/profile?tab=data' });
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account for good?' });
    // Nothing typed: the contract's message, and nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    expect(await within(dialog).findByText('Enter your password or the code sent to you')).toBeTruthy();
    expect(sent.some((s) => s.url.includes('/account/delete/'))).toBe(false);
    // An account with a password is not offered a code, which the server would refuse.
    expect(within(dialog).queryByRole('button', { name: 'Send code' })).toBeNull();
    expect(within(dialog).queryByLabelText(/Code from the SMS/)).toBeNull();
    expect(within(dialog).getByText(/Forgot your password\? Sign out/)).toBeTruthy();

    await user.type(within(dialog).getByLabelText(/Your password/), 'wrong-one');
    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    expect((await within(dialog).findAllByText('Your current password is not correct')).length).toBeGreaterThan(0);
    expect(session.accessToken()).toBe('a');

    await user.clear(within(dialog).getByLabelText(/Your password/));
    await user.type(within(dialog).getByLabelText(/Your password/), 'Gr0w!Smart2026');
    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(session.accessToken()).toBeNull());
    expect(sent.filter((s) => s.url.includes('/account/delete/')).at(-1)?.body).toEqual({ password: 'Gr0w!Smart2026' });
    expect(session.accountDeleted()).toBe(true);
  });

  it('sends a code by SMS for an account without a password, and deletes with the code', async () => {
    const noPassword = { ...farmer, account: { ...farmer.account, hasPassword: false } };
    session.signIn({ access: 'a', refresh: 'r', user: noPassword });
    const sent = server((s) => {
      if (s.url.includes('/api/privacy/account/code/')) return new Response(null, { status: 204 });
      if (s.url.includes('/api/privacy/account/delete/'))
        return json({ message: 'Your account and your data are deleted.' });
      return undefined;
    }, noPassword);
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ProfilePage />, { route: '/account/profile?tab=data' });
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText(/Your password/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Code sent by SMS.')).toBeTruthy();
    expect(sent.filter((s) => s.url.includes('/account/code/')).length).toBe(1);
    await user.type(within(dialog).getByLabelText(/Code from the SMS/), '0427');
    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(session.accessToken()).toBeNull());
    expect(sent.find((s) => s.url.includes('/account/delete/'))?.body).toEqual({ code: '0427' });
  });
});
