import type { Mail } from '../../adapters/mailer.ts';

/**
 * The texts of the account emails and SMS. In every message that carries a code, the code is the first
 * 4-digit number (nothing with four digits comes before it), so people and tests find it at once.
 */
const signature = '\n\nKutu: Detect Early . Act Fast . Grow Smart';

export function verificationMail(opts: { to: string; code: string; link: string; resent?: boolean }): Mail {
  const intro = opts.resent
    ? 'Here is your new email verification code'
    : 'Welcome to Kutu! Your email verification code is';
  return {
    to: opts.to,
    subject: 'Your Kutu verification code',
    text:
      `Hello,\n\n${intro}: ${opts.code}\n\n` +
      `Enter it on the Verify Email page, or open this link:\n${opts.link}\n\n` +
      'The code expires in 15 minutes. If you did not sign up for Kutu, you can ignore this email.' +
      signature,
  };
}

/** A phone-only farmer adds an email in Profile: the code proves the mailbox is theirs. */
export function addEmailMail(opts: { to: string; code: string }): Mail {
  return {
    to: opts.to,
    subject: 'Your Kutu email code',
    text:
      `Hello,\n\nYour code to add this email to your Kutu account is: ${opts.code}\n\n` +
      'Enter it on your Profile page. The code expires in 15 minutes. ' +
      'If you did not ask for this, you can ignore this email.' +
      signature,
  };
}

/** Sent when someone signs in with the right password to an account whose phone is not yet activated. */
export function activationLinkMail(opts: { to: string; link: string }): Mail {
  return {
    to: opts.to,
    subject: 'Finish activating your Kutu account',
    text:
      'Hello,\n\nYour email is verified, but your Kutu account is not active yet. ' +
      'We have sent a new activation code by SMS to your phone.\n\n' +
      `Open this link, enter the code from the SMS and choose your password:\n${opts.link}\n\n` +
      'The SMS code expires in 15 minutes. If you did not try to sign in to Kutu, you can ignore this email.' +
      signature,
  };
}

export function activationSms(code: string): string {
  return `Kutu: your activation code is ${code}. It expires in 15 minutes. Do not share it with anyone.`;
}

/** Sent when someone signs in with the right password to a phone-only account not yet activated. */
export function activationLinkSms(code: string, link: string): string {
  return `Kutu: your activation code is ${code}. It expires in 15 minutes. Finish activating your account: ${link}`;
}

/** The password reset code of an account reached by phone (forgot password by phone number). */
export function resetSms(code: string): string {
  return `Kutu: your password reset code is ${code}. It expires in 15 minutes. If you did not ask for it, ignore this SMS.`;
}

export function resetMail(opts: { to: string; link: string }): Mail {
  return {
    to: opts.to,
    subject: 'Reset your Kutu password',
    text:
      'Hello,\n\nWe received a request to reset the password of your Kutu account. ' +
      `Open this link to choose a new password:\n${opts.link}\n\n` +
      'The link works once and expires in 1 hour. If you did not ask for this, you can ignore this email: ' +
      'your password stays the same.' +
      signature,
  };
}
