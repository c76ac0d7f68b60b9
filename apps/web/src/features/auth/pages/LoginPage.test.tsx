import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { session } from '../../../lib/session.ts';
import { setLanguage } from '../../../lib/language.ts';
import { NavigationContext } from '../../../lib/navigation.ts';
import { apiError, fakeServer } from '../../../test/fakeServer.ts';
import swahili from '../../../lib/locales/sw.json';
import luganda from '../../../lib/locales/lg.json';
import LoginPage, { goAfterSignIn } from './LoginPage.tsx';

/**
 * The sign-in screen as src/main.tsx shows it before the full app is downloaded: no MantineProvider, no
 * router, no i18next; only the navigation the entry gives it.
 */
function signIn(search = '') {
  const go = vi.fn();
  render(
    <NavigationContext value={{ go, search }}>
      <LoginPage />
    </NavigationContext>,
  );
  return { go, user: userEvent.setup({ delay: null }) };
}

const STRONG = 'Gr0w!Smart2026';
/** The input labelled `label` (a required field's label ends with an asterisk). */
const input = (label: string) =>
  screen.getByLabelText(new RegExp(`^${label.replace(/[()?]/g, '\\$&')}\\s*\\*?$`), {
    selector: 'input',
  }) as HTMLInputElement;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the sign-in screen without the full app', () => {
  it('shows the hero, the logo, the language switch, the fields, the links and no notice', () => {
    signIn();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(screen.getByText(/Welcome back/)).toBeTruthy();
    expect(screen.getByText('Detect Early · Act Fast · Grow Smart')).toBeTruthy();
    expect(screen.getByText('Book a consultation slot with an expert')).toBeTruthy();
    const language = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Language' });
    expect([...language.options].map((o) => o.textContent)).toEqual(['English', 'Kiswahili', 'Luganda']);
    expect(input('Email or phone number').required).toBe(true);
    expect(input('Password').type).toBe('password');
    expect(screen.getByRole('link', { name: 'Forgot Password?' }).getAttribute('href')).toBe('/auth/forgot-password');
    expect(screen.getByRole('link', { name: 'Sign up as a farmer' }).getAttribute('href')).toBe('/auth/signup');
    expect(screen.getByRole('link', { name: 'Sign up as an expert' }).getAttribute('href')).toBe('/auth/expert-signup');
    expect(screen.getByRole('link', { name: 'Apply as an extension officer' }).getAttribute('href')).toBe(
      '/auth/officer-signup',
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('leaves through the navigation it is given (the entry loads the app first), unless a new tab is asked for', async () => {
    const { go, user } = signIn();
    await user.click(screen.getByRole('link', { name: 'Sign up as a farmer' }));
    expect(go).toHaveBeenCalledWith('/auth/signup');
    await user.click(screen.getByRole('link', { name: 'Forgot Password?' }));
    expect(go).toHaveBeenLastCalledWith('/auth/forgot-password');
    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('link', { name: 'Sign up as an expert' }));
    await user.keyboard('{/Control}');
    expect(go).toHaveBeenCalledTimes(2);
  });

  it('shows a followed link busy while the app downloads, and only that one', async () => {
    const { user } = signIn();
    const signup = screen.getByRole('link', { name: 'Sign up as a farmer' });
    expect(signup.getAttribute('aria-busy')).toBeNull();
    await user.click(signup);
    expect(signup.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('link', { name: 'Sign up as an expert' }).getAttribute('aria-busy')).toBeNull();
  });

  it('says why the visitor is here: the session ended, or the account was deleted', () => {
    localStorage.setItem('accountDeleted', '1');
    signIn('?expired=1');
    expect(screen.getByTestId('session-expired').textContent).toBe('Your session ended, please sign in again');
    expect(screen.getByTestId('account-deleted').textContent).toBe('Your account and your data are deleted.');
  });

  it('opens with the email or phone given after activation', () => {
    signIn('?identifier=nakato%40example.com');
    expect(input('Email or phone number').value).toBe('nakato@example.com');
  });

  it('shows and hides the password with a button named for what it will do, reached by Tab', async () => {
    const { user } = signIn();
    await user.type(input('Password'), STRONG);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Show password' }));
    await user.keyboard('{Enter}');
    expect(input('Password').type).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input('Password').type).toBe('password');
    expect(input('Password').value).toBe(STRONG);
  });

  it('says a malformed email at the field, keeps what was typed, focuses it and calls no server', async () => {
    const calls = fakeServer(() => ({ status: 500 }));
    const { user } = signIn();
    await user.type(input('Email or phone number'), 'farmer@kutu');
    await user.type(input('Password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('This is a wrong email')).toBeTruthy();
    expect(input('Email or phone number').getAttribute('aria-invalid')).toBe('true');
    expect(input('Email or phone number').getAttribute('aria-describedby')).toBeTruthy();
    expect(input('Email or phone number').value).toBe('farmer@kutu');
    expect(document.activeElement).toBe(input('Email or phone number'));
    expect(calls).toHaveLength(0);
  });

  it("says the contract's messages at the empty fields, focusing the first, until they are typed", async () => {
    const calls = fakeServer(() => ({ status: 500 }));
    const { user } = signIn();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Enter your email or phone number')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(document.activeElement).toBe(input('Email or phone number'));
    expect(screen.queryByText('Error')).toBeNull();
    await user.type(input('Password'), 'x');
    expect(screen.queryByText('Password is required')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('reads a number in the local form with the country, says what it understood, and sends E.164', async () => {
    const calls = fakeServer(() => apiError(401, 'UNAUTHENTICATED', 'Wrong phone number or password'));
    const { user } = signIn();
    await user.type(input('Email or phone number'), '0712 345 678');
    const country = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Country of the phone number' });
    expect(country.value).toBe('UG');
    await user.selectOptions(country, 'KE');
    expect(await screen.findByText('Read as +254 712 345678')).toBeTruthy();
    await user.type(input('Password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Wrong phone number or password')).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/auth/login/', body: { identifier: '+254712345678' } });
    expect(input('Email or phone number').value).toBe('0712 345 678');
  });

  it('says a number that is not one of the country at the field and keeps it', async () => {
    const calls = fakeServer(() => ({ status: 500 }));
    const { user } = signIn();
    await user.type(input('Email or phone number'), '0712 34');
    await user.type(input('Password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(/This is not a phone number of the chosen country/)).toBeTruthy();
    expect(input('Email or phone number').value).toBe('0712 34');
    expect(document.activeElement).toBe(input('Email or phone number'));
    expect(calls).toHaveLength(0);
  });

  it("shows the server's refusal on the page under 'Error', busy while it waits, and keeps what was typed", async () => {
    let answer: (value: { status: number; body?: unknown }) => void = () => {};
    const calls = fakeServer(() => apiError(401, 'UNAUTHENTICATED', 'Wrong email or password'));
    const { user } = signIn();
    await user.type(input('Email or phone number'), 'nakato@example.com');
    await user.type(input('Password'), 'not-my-password');
    vi.stubGlobal(
      'fetch',
      vi.fn(
        () =>
          new Promise<Response>((resolve) => {
            answer = ({ status, body }) =>
              resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
          }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Sign In' });
    await vi.waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expect(button.disabled).toBe(true);
    await act(async () => answer(apiError(401, 'UNAUTHENTICATED', 'Wrong email or password')));
    const error = await screen.findByTestId('sign-in-error');
    expect(error.getAttribute('role')).toBe('alert');
    expect(within(error).getByText('Error')).toBeTruthy();
    expect(within(error).getByText('Wrong email or password')).toBeTruthy();
    expect(input('Email or phone number').value).toBe('nakato@example.com');
    expect(input('Password').value).toBe('not-my-password');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sign In' }).disabled).toBe(false);
    expect(calls).toHaveLength(0);
    expect(session.accessToken()).toBeNull();
  });

  it("puts the server's field errors under their fields, translated, and focuses the first", async () => {
    fakeServer(() => ({
      status: 400,
      body: {
        error: { code: 'VALIDATION_ERROR', message: 'Check the form', fields: { password: 'Password is required' } },
      },
    }));
    const { user } = signIn();
    await user.type(input('Email or phone number'), 'nakato@example.com');
    // Past the browser's own check: the schema is not loaded in this test, the server's answer is shown.
    await user.type(input('Password'), ' ');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Check the form')).toBeTruthy();
    expect(input('Password').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(input('Password'));
  });

  it('keeps an unfinished sign-up on the page, with the button to the code box, instead of an Error', async () => {
    session.setSignUpToken(null);
    const message = 'Your account is not activated yet. We sent a new code to your phone by SMS, with a link.';
    fakeServer(() => ({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message, signup: { token: 'fresh+token', step: 'activate_phone' } } },
    }));
    const { go, user } = signIn('?expired=1');
    await user.type(input('Email or phone number'), 'nakato@example.com');
    await user.type(input('Password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    const alert = await screen.findByText(message);
    expect(alert.closest('[role=alert]')?.textContent).toContain('Finish setting up your account');
    expect(screen.queryByText('Error')).toBeNull();
    // Said instead of the session-ended notice, not beside it.
    expect(screen.queryByTestId('session-expired')).toBeNull();
    expect(session.signUpToken()).toBe('fresh+token');
    await user.click(screen.getByRole('link', { name: 'Enter the code' }));
    expect(go).toHaveBeenCalledWith('/auth/activation');

    // A later attempt clears it.
    fakeServer(() => apiError(401, 'UNAUTHENTICATED', 'Wrong email or password'));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Wrong email or password')).toBeTruthy();
    expect(screen.queryByText(message)).toBeNull();
    session.setSignUpToken(null);
  });

  it('signs in and goes on with a full page load to the saved return address, never to another site', async () => {
    const assign = vi.fn();
    session.saveReturnTo('/account/profile?tab=summary');
    goAfterSignIn(assign);
    expect(assign).toHaveBeenLastCalledWith('/account/profile?tab=summary');
    goAfterSignIn(assign);
    expect(assign).toHaveBeenLastCalledWith('/account');
    session.saveReturnTo('//evil.example/phish');
    goAfterSignIn(assign);
    expect(assign).toHaveBeenLastCalledWith('/account');
  });

  it.each([
    ['sw', swahili],
    ['lg', luganda],
  ])(
    'speaks %s from the same catalogue as the app, switched on the screen and remembered',
    async (language, strings) => {
      const calls = fakeServer(() => ({ status: 500 }));
      const { user } = signIn();
      await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), language);
      const title = await screen.findByRole('heading', { level: 1, name: strings.auth.login.title });
      expect(strings.auth.login.title).not.toBe('Sign in');
      expect(document.documentElement.lang).toBe(language);
      expect(localStorage.getItem('language')).toBe(language);
      expect(title).toBeTruthy();
      expect(screen.getByRole('combobox', { name: strings.language.label })).toBeTruthy();
      expect(screen.getByRole('button', { name: strings.auth.login.submit })).toBeTruthy();
      expect(screen.getByText(strings.app.hero.rust)).toBeTruthy();
      // Bad input is said in the language too.
      await user.type(input(strings.auth.fields.emailOrPhone), 'farmer@kutu');
      await user.click(screen.getByRole('button', { name: strings.auth.login.submit }));
      expect(await screen.findByText(strings.auth.login.wrongEmail)).toBeTruthy();
      expect(calls).toHaveLength(0);
    },
  );

  it('starts in the language stored on this phone', async () => {
    await act(() => setLanguage('lg'));
    signIn();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(luganda.auth.login.title);
  });
});
