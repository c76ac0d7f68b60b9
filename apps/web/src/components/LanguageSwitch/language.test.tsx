import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useTranslation } from 'react-i18next';
import { fakeNetwork, json } from '../../test/fakeServer.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { http } from '../../lib/api.ts';
import i18n from '../../lib/i18n.ts';
import { detectLanguage, setLanguage } from '../../lib/language.ts';
import { adoptAccountLanguage, withLanguage } from '../../lib/language-sync.ts';
import { session } from '../../lib/session.ts';
import { api } from '@kutu/contract/paths';
import luganda from '../../lib/locales/lg.json';
import type { UserRecord } from '@kutu/contract';

// Test strings, not translations: the real sw.json is written by translators.
const swahili = { auth: { login: { title: 'Ingia (test)' } }, language: { label: 'Lugha (test)' } };

function Title() {
  const { t } = useTranslation();
  return <h1>{t('auth.login.title')}</h1>;
}
const signedIn = (language: string) =>
  session.signIn({
    access: 'access-token',
    refresh: 'refresh-token',
    user: { id: 1, username: 'wanjiru', role: 'farmer', language } as unknown as UserRecord,
  });

beforeAll(() => {
  i18n.addResourceBundle('sw', 'translation', swahili, true, true);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => i18n.changeLanguage('en'));
});

describe('choosing a language', () => {
  it('re-renders the text, marks <html lang>, remembers the choice and sends it with every request', async () => {
    const sent = fakeNetwork(() => json({}));
    renderWithProviders(
      <>
        <LanguageSwitch />
        <Title />
      </>,
    );
    expect(screen.getByRole('heading').textContent).toBe('Sign in');
    const select = screen.getByRole('combobox', { name: 'Language' });
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'English',
      'Kiswahili',
      'Luganda',
    ]);

    await userEvent.selectOptions(select, 'sw');
    await waitFor(() => expect(screen.getByRole('heading').textContent).toBe('Ingia (test)'));
    expect(document.documentElement.lang).toBe('sw');
    expect(localStorage.getItem('language')).toBe('sw');
    expect(screen.getByRole('combobox', { name: 'Lugha (test)' })).toBeTruthy();

    await http.get('/api/anything/');
    expect(sent.at(-1)?.headers['accept-language']).toBe('sw');
    // Signed out: nothing to store on an account.
    expect(sent.filter((s) => s.url === api.auth.language)).toEqual([]);

    await userEvent.selectOptions(screen.getByRole('combobox'), 'en');
    await waitFor(() => expect(screen.getByRole('heading').textContent).toBe('Sign in'));
    expect(document.documentElement.lang).toBe('en');
    await http.get('/api/anything/');
    expect(sent.at(-1)?.headers['accept-language']).toBe('en');
  });

  it('names a labelled switch (Profile) by its label alone, the top bar one by its title too', () => {
    renderWithProviders(
      <>
        <LanguageSwitch />
        <LanguageSwitch label="Language of your account" />
      </>,
    );
    expect(screen.getByRole('combobox', { name: 'Language' }).getAttribute('title')).toBe('Language');
    expect(screen.getByRole('combobox', { name: 'Language of your account' }).hasAttribute('title')).toBe(false);
  });

  it('fetches a language file only when it is chosen, and marks the page in that language', async () => {
    expect(i18n.hasResourceBundle('lg', 'translation')).toBe(false);
    renderWithProviders(<Title />);
    await act(() => setLanguage('lg'));
    expect(screen.getByRole('heading').textContent).toBe(luganda.auth.login.title);
    expect(luganda.auth.login.title).not.toBe('Sign in');
    expect(document.documentElement.lang).toBe('lg');
  });

  it('starts from the stored choice, then the browser’s languages, then English; pseudo only by name', () => {
    expect(detectLanguage('lg', ['sw-KE'])).toBe('lg');
    expect(detectLanguage(null, ['fr-FR', 'sw-KE', 'en'])).toBe('sw');
    expect(detectLanguage('xx', ['lg-UG'])).toBe('lg');
    expect(detectLanguage(null, ['fr-FR'])).toBe('en');
    expect(detectLanguage('pseudo', ['sw'])).toBe('pseudo');
    expect(detectLanguage(null, ['pseudo'])).toBe('en');
  });
});

describe('the account’s language', () => {
  it('is saved when a signed-in user switches', async () => {
    const sent = fakeNetwork((s) => (s.url === api.auth.language ? json({ language: 'sw' }) : json({})));
    signedIn('en');
    renderWithProviders(<LanguageSwitch />);
    await userEvent.selectOptions(screen.getByRole('combobox'), 'sw');
    await waitFor(() => expect(sent.some((s) => s.url === api.auth.language)).toBe(true));
    const put = sent.find((s) => s.url === api.auth.language);
    expect(put).toMatchObject({ method: 'PUT', body: { language: 'sw' } });
    expect(put?.headers.authorization).toBe('Bearer access-token');
    await waitFor(() => expect((session.user() as unknown as { language: string }).language).toBe('sw'));
    expect(localStorage.getItem('languageUnsaved')).toBeNull();
  });

  it('keeps a switch the server did not store and sends it again instead of taking the old one back', async () => {
    let online = false;
    const sent = fakeNetwork((s) => {
      if (!online) throw new TypeError('Failed to fetch');
      return s.url === api.auth.language ? json({ language: 'sw' }) : json({});
    });
    signedIn('en');
    renderWithProviders(<Title />);
    renderWithProviders(<LanguageSwitch />);
    await userEvent.selectOptions(screen.getByRole('combobox'), 'sw');
    await waitFor(() => expect(sent.length).toBe(1));
    expect(i18n.language).toBe('sw');
    expect(screen.getByRole('heading').textContent).toBe('Ingia (test)');
    expect(localStorage.getItem('languageUnsaved')).toBe('sw');

    // The next account check still says English: the choice made here wins and is sent again.
    online = true;
    adoptAccountLanguage({ language: 'en' });
    await waitFor(() => expect(sent.filter((s) => s.url === api.auth.language)).toHaveLength(2));
    expect(sent.at(-1)?.body).toEqual({ language: 'sw' });
    expect(i18n.language).toBe('sw');
    await waitFor(() => expect(localStorage.getItem('languageUnsaved')).toBeNull());
  });

  it('is shown after sign-in when nothing was chosen on this phone', async () => {
    renderWithProviders(<Title />);
    adoptAccountLanguage({ language: 'sw' });
    await waitFor(() => expect(screen.getByRole('heading').textContent).toBe('Ingia (test)'));
    expect(document.documentElement.lang).toBe('sw');
    // An older server sends no language: the screen stays as it is.
    adoptAccountLanguage({});
    expect(i18n.language).toBe('sw');
  });

  it('is sent with a sign-up', async () => {
    await act(() => setLanguage('sw'));
    expect(withLanguage({ email: 'a@b.co' })).toEqual({ email: 'a@b.co', language: 'sw' });
  });
});
