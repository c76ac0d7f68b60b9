import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { UserRecord } from '@kutu/contract';
import i18n from '../../../lib/i18n.ts';
import { session } from '../../../lib/session.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { apiError, fakeServer } from '../../../test/fakeServer.ts';
import ProfilePage from './ProfilePage.tsx';

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
  vi.unstubAllGlobals();
  notifications.clean();
  notifications.cleanQueue();
});

const base: UserRecord = {
  id: 7,
  username: 'nakato',
  email: 'nakato@example.com',
  role: 'farmer',
  phone: '+256772123456',
  language: 'en',
  district: 'UG-208',
  accountComplete: false,
  needsDistrict: false,
  profile: null,
  farmer: {
    farm_location: 'Mbale',
    farm_size: 2.5,
    crop_types: ['MAIZE', 'BEANS'],
    sms_alerts: true,
    voice_warnings: false,
  },
  expert: null,
  vetting: null,
  account: {
    accountNumber: 'KU-000007',
    accountType: 'Farmer',
    isActivated: true,
    isPhoneVerified: true,
    isEmailVerified: true,
    hasPassword: true,
    website: null,
  },
};
const completed: UserRecord = {
  ...base,
  accountComplete: true,
  profile: {
    idType: 'NATIONAL_ID',
    idNumber: 'CM900',
    organisationName: 'Mbale Maize Growers',
    firstName: 'Nakato',
    middleName: '',
    lastName: 'Achieng',
    gender: 'FEMALE',
    physicalAddress: 'Plot 4, Mbale',
    nationality: 'Ugandan',
    dob: '1990-05-17',
    occupation: 'Farmer',
  },
};

const row = (label: string) => screen.getByRole('rowheader', { name: label }).closest('tr')?.textContent;

describe('ProfilePage', () => {
  it("a farmer's incomplete profile opens on the summary and its alerts; the ID and birth date are an optional tab after it", async () => {
    session.signIn({ access: 'a', refresh: 'r', user: base });
    const calls = fakeServer((call) =>
      call.method === 'PUT' ? { status: 200, body: completed } : { status: 200, body: base },
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ProfilePage />, { route: '/account/profile' });
    expect(screen.getByRole('tab', { name: 'Account Summary' }).getAttribute('aria-selected')).toBe('true');
    // The district and SMS alerts come first, above the account's record.
    const alerts = await screen.findByText('Outbreak alerts');
    const record = screen.getByRole('rowheader', { name: 'Full name' });
    expect(alerts.compareDocumentPosition(record) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Complete Profile' })).toBeNull();
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['Account Summary', 'More details (optional)', 'Change Password', 'My data']);
    expect(screen.queryByLabelText(/^ID number/)).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'More details (optional)' }));
    expect(await screen.findByText(/These details are optional/)).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: 'Save profile' }));
    for (const msg of ['ID number is required', 'First name is required', 'Occupation is required']) {
      expect(screen.getByText(msg)).toBeTruthy();
    }
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    const fill = async (label: RegExp, value: string) => user.type(screen.getByLabelText(label), value);
    await user.selectOptions(screen.getByRole('combobox', { name: /^ID type/ }), 'Passport');
    await fill(/^ID number/, 'CM900');
    await fill(/^Organisation name/, 'Mbale Maize Growers');
    await fill(/^First name/, 'Nakato');
    await fill(/^Last name/, 'Achieng');
    await fill(/^Physical address/, 'Plot 4, Mbale');
    await fill(/^Nationality/, 'Ugandan');
    await fill(/^Date of birth/, '1990-05-17');
    await fill(/^Occupation/, 'Farmer');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));

    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Account Summary' }).getAttribute('aria-selected')).toBe('true'),
    );
    expect(screen.queryByRole('tab', { name: 'More details (optional)' })).toBeNull();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/api/auth/complete-profile/',
      body: { idType: 'PASSPORT', gender: 'MALE', middleName: '', dob: '1990-05-17' },
    });
    expect(session.user()?.accountComplete).toBe(true);
    expect(row('Full name')).toContain('Nakato Achieng');
  }, 30_000);

  it("puts the server's field errors under their fields and keeps everything typed", async () => {
    // Details saved before, the profile still incomplete: the server answers the same account.
    const saved = { ...completed, accountComplete: false };
    session.signIn({ access: 'a', refresh: 'r', user: saved });
    const taken = 'This ID number is already registered';
    const calls = fakeServer((call) =>
      call.method === 'PUT'
        ? apiError(409, 'CONFLICT', 'Some details were refused', { idNumber: taken })
        : { status: 200, body: saved },
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ProfilePage />, { route: '/account/profile?tab=complete' });
    await user.clear(await screen.findByLabelText(/^Occupation/));
    await user.type(screen.getByLabelText(/^Occupation/), 'Agronomist');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));

    expect(await screen.findByText(taken)).toBeTruthy();
    expect(screen.getByLabelText(/^ID number/).getAttribute('aria-invalid')).toBe('true');
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ idNumber: 'CM900', occupation: 'Agronomist' });
    expect((screen.getByLabelText(/^Occupation/) as HTMLInputElement).value).toBe('Agronomist');
    expect((screen.getByLabelText(/^ID number/) as HTMLInputElement).value).toBe('CM900');
  });

  it('lets a farmer who signed up by phone add an email with the emailed code', async () => {
    const phoneOnly = { ...completed, email: null, account: { ...completed.account, isEmailVerified: false } };
    const withEmail = { ...completed, email: 'nakato@example.com' };
    session.signIn({ access: 'a', refresh: 'r', user: phoneOnly });
    const calls = fakeServer((call) => {
      if (call.url === '/api/auth/email/') return { status: 200, body: { message: 'We sent a 4-digit code.' } };
      if (call.url === '/api/auth/email/confirm/') return { status: 200, body: withEmail };
      return { status: 200, body: phoneOnly };
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ProfilePage />, { route: '/account/profile' });
    expect(await screen.findByRole('heading', { name: 'Add an email' })).toBeTruthy();
    await user.type(screen.getByLabelText(/^Email/), 'nakato@example');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('This is a wrong email')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Email/), '.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('We sent a 4-digit code.')).toBeTruthy();

    // The code is checked with confirmEmailBody before it is sent.
    await user.click(screen.getByRole('button', { name: 'Add email' }));
    expect(await screen.findByText('Enter the code we emailed you')).toBeTruthy();
    await user.click(screen.getByLabelText('Code from the email 1/4'));
    await user.keyboard('042');
    await user.click(screen.getByRole('button', { name: 'Add email' }));
    expect(await screen.findByText('The code has 4 digits')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/auth/email/confirm/')).toBe(false);
    await user.click(screen.getByLabelText('Code from the email 4/4'));
    await user.keyboard('7');
    await user.click(screen.getByRole('button', { name: 'Add email' }));
    await waitFor(() => expect(session.user()?.email).toBe('nakato@example.com'));
    expect(calls.find((c) => c.url === '/api/auth/email/confirm/')?.body).toEqual({
      email: 'nakato@example.com',
      code: '0427',
    });
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Add an email' })).toBeNull());
  }, 30_000);

  it('opens on the summary when complete, with N/A, Active and Verified flags', async () => {
    session.signIn({
      access: 'a',
      refresh: 'r',
      user: { ...completed, account: { ...completed.account, isEmailVerified: false } },
    });
    fakeServer(() => ({ status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'down' } } }));
    renderWithProviders(<ProfilePage />, { route: '/account/profile' });
    expect(screen.getByRole('tab', { name: 'Account Summary' }).getAttribute('aria-selected')).toBe('true');
    expect(row('Website')).toContain('N/A');
    expect(row('Status')).toContain('Active');
    expect(row('Phone verification')).toContain('Verified');
    expect(row('Email verification')).toContain('UnVerified');
    expect(row('Email')).toContain('nakato@example.com');
    expect(row('Name')).toContain('Mbale Maize Growers');
    expect(row('Crops')).toContain('Maize, Beans');
    expect(await screen.findByText(/could not be loaded/)).toBeTruthy();
  });

  it("shows the account type as the user's role in their language, not the English the API sends", async () => {
    // The API's English label is for API clients; an officer's must never read as another role.
    session.signIn({
      access: 'a',
      refresh: 'r',
      user: { ...completed, account: { ...completed.account, accountType: 'X' } },
    });
    fakeServer(() => ({ status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'down' } } }));
    renderWithProviders(<ProfilePage />, { route: '/account/profile' });
    expect(row('Account type')).toContain('Farmer');
    await act(() => i18n.changeLanguage('sw'));
    expect(row('Aina ya akaunti')).toContain('Mkulima');
    expect(row('Aina ya akaunti')).not.toContain('X');
  });
});
