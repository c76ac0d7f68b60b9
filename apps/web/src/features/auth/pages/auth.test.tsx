import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { notifications } from '@mantine/notifications';
import { session } from '../../../lib/session.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { apiError, fakeServer } from '../../../test/fakeServer.ts';
import ActivationPage from './ActivationPage.tsx';
import ConfirmPasswordResetPage from './ConfirmPasswordResetPage.tsx';
import ExpertSignupPage from './ExpertSignupPage.tsx';
import FarmerSignupPage from './FarmerSignupPage.tsx';
import ForgotPasswordPage from './ForgotPasswordPage.tsx';
import LoginPage from './LoginPage.tsx';
import VerifyEmailPage from './VerifyEmailPage.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  // The notifications store outlives a render; start each test with none shown or queued.
  notifications.clean();
  notifications.cleanQueue();
});

const STRONG = 'Gr0w!Smart2026';
/** The input labelled `label` (a required field's label ends with an asterisk). */
const input = (label: string) =>
  screen.getByLabelText(new RegExp(`^${label.replace(/[()?]/g, '\\$&')}\\s*\\*?$`), {
    selector: 'input',
  }) as HTMLInputElement;

function authRoutes(route: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/auth" element={<LoginPage />} />
      <Route path="/auth/signup" element={<FarmerSignupPage />} />
      <Route path="/auth/expert-signup" element={<ExpertSignupPage />} />
      <Route path="/auth/verify-email" element={<VerifyEmailPage />} />
      <Route path="/auth/activation" element={<ActivationPage />} />
      <Route path="/auth/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/auth/confirm-password-reset" element={<ConfirmPasswordResetPage />} />
    </Routes>,
    { route },
  );
}

// The sign-in screen's own tests: LoginPage.test.tsx. Here, its link out inside the full app's router.
describe('Login in the app', () => {
  it('takes an unfinished sign-up on to its code box with the token the server gave this browser', async () => {
    session.setSignUpToken(null);
    const message = 'Your account is not activated yet. We sent a new code to your phone by SMS, with a link.';
    fakeServer(() => ({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message, signup: { token: 'fresh+token', step: 'activate_phone' } } },
    }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth');
    await user.type(input('Email or phone number'), 'nakato@example.com');
    await user.type(input('Password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toContain(message);
    expect(session.signUpToken()).toBe('fresh+token');
    await user.click(screen.getByRole('link', { name: 'Enter the code' }));
    expect(await screen.findByText('Activate your account')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Activate' })).toBeTruthy();
    expect(screen.queryByTestId('activation-no-token')).toBeNull();
    session.setSignUpToken(null);
  });
});

describe('Activation', () => {
  async function typeCode(user: ReturnType<typeof userEvent.setup>, code: string) {
    await user.click(screen.getByLabelText('One-time code 1/4'));
    await user.keyboard(code);
  }

  it('asks only for the SMS code (the password was chosen at sign-up), then opens sign-in with the email', async () => {
    session.setSignUpToken('signup-token');
    const calls = fakeServer(() => ({
      status: 200,
      body: { message: 'Your account is active. Sign in.', identifier: 'nakato@example.com' },
    }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/activation');
    expect(screen.queryByLabelText(/Password/)).toBeNull();
    const activate = screen.getByRole('button', { name: 'Activate' });

    await user.click(activate);
    expect(screen.getByText('Type in the OTP')).toBeTruthy();
    expect(calls).toHaveLength(0);

    await typeCode(user, 'a1b2c3d4');
    expect(
      [1, 2, 3, 4].map((i) => (screen.getByLabelText(`One-time code ${i}/4`) as HTMLInputElement).value).join(''),
    ).toBe('1234');
    await user.click(activate);
    expect(await screen.findByText('Your account is active. Sign in.')).toBeTruthy();
    expect(calls).toEqual([
      { method: 'POST', url: '/api/auth/activate/', body: { otp: '1234', token: 'signup-token' } },
    ]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy());
    // The account's email, named by the server (this tab may never have seen the sign-up form).
    expect(input('Email or phone number').value).toBe('nakato@example.com');
    expect(session.signUpToken()).toBeNull();
  }, 30_000);

  it('takes the token from the emailed link when none is stored', async () => {
    const calls = fakeServer(() => ({ status: 200, body: { message: 'Your account is active. Sign in.' } }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/activation?token=emailed%2Btoken');
    expect(screen.queryByText(/token was not saved/)).toBeNull();
    await typeCode(user, '4321');
    await user.click(screen.getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('Your account is active. Sign in.')).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/auth/activate/', body: { otp: '4321', token: 'emailed+token' } });
  });

  it('in a fresh browser (no token), says where the code can be typed and leads to sign-in', async () => {
    const calls = fakeServer(() => ({ status: 200, body: {} }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/activation');
    expect(screen.getByTestId('activation-no-token').textContent).toContain(
      'Open the link in the SMS or email Kutu sent you. Or sign in with your email or phone number and password',
    );
    // Signing in sends a new code only once the one sent has run out (the server's resumeSignUp): no promise of one.
    expect(screen.getByTestId('activation-no-token').textContent).toContain(
      'type the code it already sent, and sends a new one only if that code has run out',
    );
    expect(screen.queryByText(/Base64/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Activate' })).toBeNull();
    await user.click(within(screen.getByTestId('activation-no-token')).getByRole('link', { name: 'Sign In' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('shows the server error and resends the SMS code', async () => {
    session.setSignUpToken('signup-token');
    const calls = fakeServer((call) =>
      call.url.includes('resend')
        ? { status: 200, body: { message: 'A new code is on its way' } }
        : apiError(400, 'BAD_REQUEST', 'The code is wrong or has expired'),
    );
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/activation');
    await typeCode(user, '9999');
    await user.click(screen.getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('The code is wrong or has expired')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(await screen.findByText('A new code is on its way')).toBeTruthy();
    expect(calls[1]).toMatchObject({ body: { actionType: 'PHONE_ACTIVATION', token: 'signup-token' } });
  });
});

describe('Verify Email', () => {
  it('needs a code and a token', async () => {
    const calls = fakeServer(() => ({ status: 200, body: {} }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/verify-email');
    expect(screen.getByText('Verification token is missing!')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Please enter the verification code.')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('verifies by itself when the link carries the token and the code, then opens activation', async () => {
    const calls = fakeServer(() => ({ status: 200, body: { message: 'Email verified', token: 'next-token' } }));
    authRoutes('/auth/verify-email?token=link-token&verificationToken=4321');
    expect(await screen.findByRole('heading', { name: 'Activate your account' })).toBeTruthy();
    expect(calls).toEqual([
      { method: 'POST', url: '/api/auth/verify-email/', body: { token: 'link-token', verificationCode: '4321' } },
    ]);
    expect(session.signUpToken()).toBe('next-token');
  });

  it('falls back to the stored sign-up token and resends the email code', async () => {
    session.setSignUpToken('stored-token');
    const calls = fakeServer(() => ({ status: 200, body: { message: 'We sent a new code' } }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/verify-email');
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(await screen.findByText('We sent a new code')).toBeTruthy();
    expect(calls[0].body).toEqual({ actionType: 'EMAIL_VERIFICATION', token: 'stored-token' });
  });
});

describe('Confirm Password Reset', () => {
  it('clears both fields for a weak password and for a mismatch', async () => {
    const calls = fakeServer(() => ({ status: 200, body: { message: 'Password changed' } }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/confirm-password-reset?token=reset-token');
    await user.type(input('New password'), 'abc123');
    await user.type(input('Confirm password'), 'abc123');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Password is Weak')).toBeTruthy();
    expect([input('New password').value, input('Confirm password').value]).toEqual(['', '']);

    await user.type(input('New password'), STRONG);
    await user.type(input('Confirm password'), `${STRONG}x`);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Password mismatch')).toBeTruthy();
    expect([input('New password').value, input('Confirm password').value]).toEqual(['', '']);
    expect(calls).toHaveLength(0);

    await user.type(input('New password'), STRONG);
    await user.type(input('Confirm password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(calls[0]).toMatchObject({
      url: '/api/auth/reset-password/',
      body: { token: 'reset-token', new_password: STRONG, confirm_password: STRONG },
    });
  }, 30_000);

  it("says 'Invalid Token, check your email' without a token", async () => {
    fakeServer(() => ({ status: 200, body: {} }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/confirm-password-reset');
    await user.type(input('New password'), STRONG);
    await user.type(input('Confirm password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findAllByText('Invalid Token, check your email')).toHaveLength(2);
  });
});

describe('Forgot Password', () => {
  it("shows 'Success' with the server's message and clears the email", async () => {
    fakeServer(() => ({ status: 200, body: { message: 'If this email has an account, a reset link is on its way.' } }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/forgot-password');
    await user.type(input('Email'), 'nakato@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('If this email has an account, a reset link is on its way.')).toBeTruthy();
    expect(screen.getByText('Success')).toBeTruthy();
    expect(input('Email').value).toBe('');
  });
  it('checks the email before calling the server and keeps it on a server error', async () => {
    const calls = fakeServer(() => apiError(429, 'TOO_MANY_REQUESTS', 'Too many requests, try again later'));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/forgot-password');
    const submit = screen.getByRole('button', { name: 'Submit' });
    await user.click(submit);
    expect(await screen.findByText('Email is required')).toBeTruthy();
    await user.type(input('Email'), 'nakato@example');
    expect(screen.queryByText('Email is required')).toBeNull();
    await user.click(submit);
    expect(await screen.findByText('This is a wrong email')).toBeTruthy();
    expect(calls).toHaveLength(0);

    await user.type(input('Email'), '.com');
    await user.click(submit);
    expect(await screen.findByText('Too many requests, try again later')).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/auth/forgot-password/', body: { email: 'nakato@example.com' } });
    expect(input('Email').value).toBe('nakato@example.com');
  });
});

describe('Farmer sign-up', () => {
  it("checks fields with the server's rules, shows the server's field errors, and keeps everything typed", async () => {
    const calls = fakeServer(() =>
      apiError(409, 'CONFLICT', 'This email already has an account', { email: 'This email already has an account' }),
    );
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/signup');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Farm location is required')).toBeTruthy();
    expect(calls).toHaveLength(0);

    await user.type(input('Email (optional)'), 'nakato@kutu');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('This is a wrong email')).toBeTruthy();
    await user.clear(input('Email (optional)'));
    await user.type(input('Email (optional)'), 'nakato@example.com');
    await user.type(input('Username'), 'nakato');
    await user.type(input('Password'), STRONG);
    await user.type(input('Confirm password'), STRONG);
    await user.type(input('Phone number'), '0772123456');
    await user.type(input('Farm location'), 'Mbale');
    await user.type(input('Farm size (acres)'), '3 acres');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Farm size must be a number of acres')).toBeTruthy();
    expect(input('Farm size (acres)').value).toBe('3 acres');
    expect(calls).toHaveLength(0);
    await user.clear(input('Farm size (acres)'));
    await user.type(input('Farm size (acres)'), '3');
    // The service's consent is required, and nothing is ticked for the farmer.
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Agree to Kutu keeping your details to give you the service')).toBeTruthy();
    expect(calls).toHaveLength(0);
    await user.click(screen.getByRole('checkbox', { name: /Kutu keeps my name/ }));
    await user.click(screen.getByRole('checkbox', { name: /train Kutu's model/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Maize' }));
    await user.click(screen.getByRole('checkbox', { name: 'Beans' }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findAllByText('This email already has an account')).toHaveLength(2);
    expect(calls[0]).toMatchObject({
      url: '/api/auth/register/farmer/',
      body: {
        email: 'nakato@example.com',
        phone_number: '+256772123456',
        farm_size: 3,
        crop_types: ['MAIZE', 'BEANS'],
        // The new account starts in the language the form was shown in.
        language: 'en',
        consent: { service: true, sms: false, training: true },
      },
    });
    expect(input('Username').value).toBe('nakato');
  }, 60_000);

  it('signs up without an email and goes straight to the SMS code (Activation)', async () => {
    const calls = fakeServer(() => ({
      status: 201,
      body: { message: 'We sent a 4-digit code by SMS', token: 'sms-token' },
    }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/signup');
    expect(input('Email (optional)').required).toBe(false);
    await user.type(input('Username'), 'nakato');
    await user.type(input('Password'), STRONG);
    await user.type(input('Confirm password'), STRONG);
    await user.type(input('Phone number'), '0772123456');
    await user.type(input('Farm location'), 'Mbale');
    await user.type(input('Farm size (acres)'), '3');
    await user.click(screen.getByRole('checkbox', { name: /Kutu keeps my name/ }));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Activate your account')).toBeTruthy();
    expect(calls[0].url).toBe('/api/auth/register/farmer/');
    expect(calls[0].body).not.toHaveProperty('email');
    expect(session.signUpToken()).toBe('sms-token');
  }, 30_000);
});

describe('Expert sign-up', () => {
  it('keeps years of experience that are not a whole number with a message, and sends them as a number', async () => {
    const calls = fakeServer(() => ({ status: 201, body: { message: 'Check your email', token: 'expert-token' } }));
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/expert-signup');
    await user.type(input('Email'), 'wanjiru@example.com');
    await user.type(input('Username'), 'wanjiru');
    await user.type(input('Password'), STRONG);
    await user.type(input('Phone number'), '+254712123456');
    // The password is confirmed here, at sign-up: activation does not ask for it again.
    await user.type(input('Confirm password'), `${STRONG}x`);
    await user.type(input('Areas of expertise'), 'Maize rusts');
    // The district the expert serves: outbreak alerts there reach them.
    await user.selectOptions(screen.getByTestId('district-select'), 'UG-102');
    // An expert's own consents: what their account keeps, and SMS; no farmer's photos to train the model.
    await user.click(
      screen.getByRole('checkbox', { name: /Kutu keeps my name, email, phone number, district and the expertise/ }),
    );
    await user.click(screen.getByRole('checkbox', { name: /send me SMS/ }));
    expect(screen.queryByRole('checkbox', { name: /train Kutu's model/ })).toBeNull();
    expect(input('Years of experience').value).toBe('0');
    await user.clear(input('Years of experience'));
    await user.type(input('Years of experience'), '2.5');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Years of experience must be a whole number')).toBeTruthy();
    expect(input('Years of experience').value).toBe('2.5');
    expect(calls).toHaveLength(0);

    await user.clear(input('Years of experience'));
    await user.type(input('Years of experience'), '12');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Password mismatch')).toBeTruthy();
    expect(calls).toHaveLength(0);
    await user.clear(input('Confirm password'));
    await user.type(input('Confirm password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      url: '/api/auth/register/expert/',
      body: {
        phone_number: '+254712123456',
        experience_years: 12,
        confirm_password: STRONG,
        district: 'UG-102',
      },
    });
    expect((calls[0]!.body as { consent: unknown }).consent).toEqual({ service: true, sms: true });
  }, 60_000);
});

describe('Forgot Password by SMS', () => {
  it('sends a code to the phone number, then sets the new password with the code on the same screen', async () => {
    const calls = fakeServer((call) =>
      call.url === '/api/auth/forgot-password/'
        ? { status: 200, body: { message: 'If an account uses this phone number, we have sent it a code.' } }
        : { status: 200, body: { message: 'Your password has been reset.' } },
    );
    const user = userEvent.setup({ delay: null });
    authRoutes('/auth/forgot-password');
    await user.click(screen.getByText('By SMS'));
    const send = await screen.findByRole('button', { name: 'Send code' });
    await user.click(send);
    expect(screen.getByText('Enter a valid phone number with its country code')).toBeTruthy();
    expect(calls).toHaveLength(0);
    await user.type(input('Phone number'), '0772123456');
    await user.click(send);
    expect(await screen.findByText('If an account uses this phone number, we have sent it a code.')).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/auth/forgot-password/', body: { phone: '+256772123456' } });

    await user.click(screen.getByLabelText('Code from the SMS 1/4'));
    await user.keyboard('0427');
    await user.type(input('New password'), STRONG);
    await user.type(input('Confirm password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Your password has been reset.')).toBeTruthy();
    expect(calls[1]).toMatchObject({
      url: '/api/auth/reset-password/code/',
      body: { phone: '+256772123456', code: '0427', new_password: STRONG, confirm_password: STRONG },
    });
  }, 30_000);
});
