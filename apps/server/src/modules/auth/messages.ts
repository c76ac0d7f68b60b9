import type { Language } from '@kutu/contract';
import type { Mail } from '../../adapters/mailer.ts';
import { t } from '../../i18n/i18n.ts';
import { smsText } from '../../i18n/sms-texts.ts';

/**
 * The account emails and SMS, in the recipient account's language (apps/server/src/i18n/locales). In
 * every message that carries a code, the code is the first 4-digit number (nothing with four digits
 * comes before it), so people and tests find it at once; the catalog test checks this per language.
 */
const withSignature = (language: Language, text: string) => `${text}\n\n${t(language, 'mail.signature')}`;

export function verificationMail(opts: {
  to: string;
  language: Language;
  code: string;
  link: string;
  resent?: boolean;
}): Mail {
  const { language } = opts;
  const intro = t(language, opts.resent ? 'mail.verification.introResent' : 'mail.verification.introNew');
  return {
    to: opts.to,
    subject: t(language, 'mail.verification.subject'),
    text: withSignature(language, t(language, 'mail.verification.text', { intro, code: opts.code, link: opts.link })),
  };
}

/** A phone-only farmer adds an email in Profile: the code proves the mailbox is theirs. */
export function addEmailMail(opts: { to: string; language: Language; code: string }): Mail {
  return {
    to: opts.to,
    subject: t(opts.language, 'mail.addEmail.subject'),
    text: withSignature(opts.language, t(opts.language, 'mail.addEmail.text', { code: opts.code })),
  };
}

/** Sent when someone signs in with the right password to an account whose phone is not yet activated. */
export function activationLinkMail(opts: { to: string; language: Language; link: string }): Mail {
  return {
    to: opts.to,
    subject: t(opts.language, 'mail.activationLink.subject'),
    text: withSignature(opts.language, t(opts.language, 'mail.activationLink.text', { link: opts.link })),
  };
}

/** The password reset code of an account reached by phone (forgot password by phone number). */
export function resetSms(language: Language, code: string): string {
  return smsText(language, 'sms.reset', { code });
}

export function resetMail(opts: { to: string; language: Language; link: string }): Mail {
  return {
    to: opts.to,
    subject: t(opts.language, 'mail.reset.subject'),
    text: withSignature(opts.language, t(opts.language, 'mail.reset.text', { link: opts.link })),
  };
}
