import type { z } from 'zod';
import {
  districtByCode,
  type expertRegisterBody,
  type ConsentChoices,
  type farmerRegisterBody,
  type officerRegisterBody,
  type Language,
  needsApproval,
  type otpActionTypes,
} from '@kutu/contract';
import { message } from '../../i18n/i18n.ts';
import { AppError, badRequest, forbidden, tooMany } from '../../lib/errors.ts';
import { randomToken } from '../../lib/tokens.ts';
import { uniqueViolation, type UserRow } from './auth.repo.ts';
import { codeProblem, RESEND_WINDOW_MS, resendProblem } from './codes.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import { activationLinkMail, verificationMail } from './messages.ts';
import { hashSecret } from './passwords.ts';
import { createPhoneFarmer, type PhoneFarmerInput } from './phone-account.ts';

/** What a farmer gives on a basic phone, as the basic-phone module's menu collects it. */
export type { PhoneFarmerInput } from './phone-account.ts';
import { type AuthShared, clash, emailOrThrow } from './auth.shared.ts';

/** The sign-up token's life: the sign-up reply's, and the one a sign-in to an unfinished account sends. */
const SIGNUP_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;

/** Whether the sign-up still waits for the email step (a phone-only account has none). */
const awaitsEmail = (user: UserRow) => user.email !== null && !user.emailVerifiedAt;

type FarmerInput = z.output<typeof farmerRegisterBody>;
type ExpertInput = z.output<typeof expertRegisterBody>;
type OfficerInput = z.output<typeof officerRegisterBody>;
type OtpAction = (typeof otpActionTypes)[number];

/**
 * Consent as sign-up records it: the privacy module's consent service, handed in by services.ts. Privacy
 * reaches auth (an erasure checks the password or a code), so auth knows consent only as this port.
 */
interface ConsentRecorder {
  record(userId: number, choices: ConsentChoices, channel: 'web' | 'ussd' | 'clinic', at?: Date): Promise<unknown>;
}

/** Sign-up: register a farmer or an expert, verify the email, activate by SMS, resend codes, resume an unfinished one. */
export function createSignupService(shared: AuthShared, consent: ConsentRecorder) {
  const { deps, log, repo, applications, hash, verifyLink, activationLink, freshCode, checkCode } = shared;
  const { sendSms, sendActivationSms } = shared;
  const { clock, mailer } = deps;

  async function register(
    input: {
      email?: string;
      username: string;
      phone: string;
      password: string;
      role: 'farmer' | 'expert' | 'officer';
      language: Language;
      /** Already checked by the contract against the shipped district list (docs/decisions/0031). */
      district?: string;
      /** What the person agreed to in the form (recorded with the account, channel `web`). */
      consent: ConsentChoices;
    },
    details: Pick<Parameters<typeof repo.createAccount>[0], 'farmer' | 'expert'> & {
      officer?: { office: string; districts: string[] };
    },
  ) {
    // Only a farmer's body may leave the email out (the contract); without one, the phone is verified first.
    const email = input.email === undefined ? null : emailOrThrow(input.email);
    const account = { ...input, email };
    const clashes = await repo.findClashes(account.email, account.username, account.phone);
    const emailTaken = email !== null && clashes.some((c) => c.email?.toLowerCase() === email.toLowerCase());
    const usernameTaken = clashes.some((c) => c.username.toLowerCase() === account.username.toLowerCase());
    const phoneTaken = clashes.some((c) => c.phone === account.phone);
    if (emailTaken) throw clash('users_email_unique');
    if (usernameTaken) throw clash('users_username_unique');
    if (phoneTaken) throw clash('users_phone_unique');

    const now = clock.now();
    const token = randomToken();
    const { code, stored } = await freshCode(now);
    const passwordHash = await hashSecret(account.password);
    let user: UserRow;
    try {
      user = await repo.createAccount({
        user: {
          email: account.email,
          username: account.username,
          role: account.role,
          phone: account.phone,
          language: account.language,
          district: account.district ?? null,
          passwordHash,
        },
        farmer: details.farmer,
        expert: details.expert,
        firstCode: email === null ? 'PHONE_ACTIVATION' : 'EMAIL_VERIFICATION',
        signUpTokenHash: hash(token),
        signUpExpiresAt: new Date(now.getTime() + SIGNUP_TOKEN_TTL_MS),
        code: stored,
        now,
        // A role that needs approval waits for an administrator (docs/decisions/0093), from the account's start.
        alsoInTx: async (tx, user) => {
          if (needsApproval(user.role)) await applications.open(user.id, user.role, now, tx, details.officer);
        },
      });
    } catch (err) {
      const index = uniqueViolation(err);
      if (index !== null) throw clash(index);
      throw err;
    }
    await consent.record(user.id, input.consent, 'web', now);
    if (user.email === null) return sendFirstActivationSms(user, code, token);
    try {
      await mailer.send(
        verificationMail({ to: user.email, language: user.language, code, link: verifyLink(token, code) }),
      );
    } catch (err) {
      log.error({ err }, 'could not send the verification email; the sign-up was undone');
      await repo.deleteUser(user.id);
      throw new AppError('SERVICE_UNAVAILABLE', 'errors.auth.mailFailed', 503);
    }
    return {
      message: message('success.auth.codeEmailed', { email: user.email }),
      token,
    };
  }

  /**
   * A phone-only sign-up: the SMS code is the first step. It goes through the outbox (sendSms): the
   * account and its code stand whatever the gateway answers, and the code it sends is the one that works.
   */
  async function sendFirstActivationSms(user: UserRow, code: string, token: string) {
    await sendActivationSms(user, code);
    return {
      message: message('success.auth.codeBySmsToActivate'),
      token,
    };
  }

  /** The sign-up token's row and its user; a used token means the account is already active. */
  async function signUpSession(token: string) {
    const row = await repo.findActionToken(hash(token), 'signup');
    if (!row || row.expiresAt.getTime() <= clock.now().getTime()) throw badRequest('errors.auth.invalidSignUpToken');
    if (row.usedAt) throw badRequest('errors.auth.alreadyActive');
    const user = await repo.findUserById(row.userId);
    if (!user) throw badRequest('errors.auth.invalidSignUpToken');
    if (user.activatedAt) throw badRequest('errors.auth.alreadyActive');
    return { tokenRow: row, user };
  }

  /**
   * Login with the right password to an account that never finished signing up: the owner may have lost
   * the sign-up token, so this browser gets a fresh one, with the screen to type the code of the missing
   * step (the email code before verification, the SMS code after). While the code already sent still
   * works, nothing new is sent: a new code would replace the one the person may be typing, and restart
   * the resend wait at every sign-in. Otherwise a new code goes out (and an email link, for another
   * device); when the resend throttle refuses it, the reply says when to ask again. Returns the 403 to throw.
   */
  async function resumeSignUp(user: UserRow): Promise<AppError> {
    const verifying = awaitsEmail(user);
    const purpose = verifying ? 'EMAIL_VERIFICATION' : 'PHONE_ACTIVATION';
    const now = clock.now();
    const token = randomToken();
    const signUpToken = { tokenHash: hash(token), expiresAt: new Date(now.getTime() + SIGNUP_TOKEN_TTL_MS) };
    // The right password was given: this browser may type the code at once (no link to follow).
    const signup = { token, step: verifying ? ('verify_email' as const) : ('activate_phone' as const) };
    if (!codeProblem(await repo.latestCode(user.id, purpose), now)) {
      await repo.addSignUpToken(user.id, signUpToken, now);
      return Object.assign(forbidden(verifying ? 'errors.auth.notVerified' : 'errors.auth.notActivated'), { signup });
    }
    const { code, stored } = await freshCode(now);
    const problem = await repo.replaceCode(
      { userId: user.id, purpose, code: stored, now, since: new Date(now.getTime() - RESEND_WINDOW_MS), signUpToken },
      (sentAt) => resendProblem(sentAt, now),
    );
    if (problem) {
      await repo.addSignUpToken(user.id, signUpToken, now);
      const refused = message(verifying ? 'errors.auth.notVerifiedWait' : 'errors.auth.notActivatedWait', { problem });
      return Object.assign(forbidden(refused), { signup });
    }
    if (user.email === null) {
      // No email to carry the activation link: the SMS carries it with the code.
      await sendSms(user, smsMessage('sms.activationLink', { code, link: activationLink(token) }));
      return Object.assign(forbidden('errors.auth.activationResentBySms'), { signup });
    }
    if (!verifying) await sendActivationSms(user, code);
    try {
      await mailer.send(
        verifying
          ? verificationMail({
              to: user.email,
              language: user.language,
              code,
              link: verifyLink(token, code),
              resent: true,
            })
          : activationLinkMail({ to: user.email, language: user.language, link: activationLink(token) }),
      );
    } catch (err) {
      log.error({ err }, 'could not send the sign-up email after a sign-in to an unfinished account');
      return new AppError('SERVICE_UNAVAILABLE', 'errors.auth.emailFailed', 503);
    }
    return Object.assign(forbidden(verifying ? 'errors.auth.verificationResent' : 'errors.auth.activationResent'), {
      signup,
    });
  }

  /** The account's language: the one chosen in the form, else the browser's (Accept-Language), else English. */
  const signUpLanguage = (chosen: Language | undefined, fromHeader: Language | null): Language =>
    chosen ?? fromHeader ?? 'en';

  return {
    registerFarmer: (b: FarmerInput, headerLanguage: Language | null = null) =>
      register(
        {
          email: b.email,
          username: b.username,
          phone: b.phone_number,
          password: b.password,
          role: 'farmer',
          language: signUpLanguage(b.language, headerLanguage),
          district: b.district,
          consent: b.consent,
        },
        { farmer: { farmLocation: b.farm_location, farmSize: b.farm_size, cropTypes: b.crop_types } },
      ),

    registerExpert: (b: ExpertInput, headerLanguage: Language | null = null) =>
      register(
        {
          email: b.email,
          username: b.username,
          phone: b.phone_number,
          password: b.password,
          role: 'expert',
          language: signUpLanguage(b.language, headerLanguage),
          district: b.district,
          consent: b.consent,
        },
        {
          expert: {
            areasOfExpertise: b.areas_of_expertise,
            certifications: b.certifications,
            bio: b.bio,
            experienceYears: b.experience_years,
            institution: b.institution,
            languagesSpoken: b.languages_spoken,
            socialLinks: b.social_links,
          },
        },
      ),

    /** An extension officer's application (waits for an administrator); their first district is their own. */
    registerOfficer: (b: OfficerInput, headerLanguage: Language | null = null) =>
      register(
        {
          email: b.email,
          username: b.username,
          phone: b.phone_number,
          password: b.password,
          role: 'officer',
          language: signUpLanguage(b.language, headerLanguage),
          district: b.districts[0],
          // The service and SMS, as the form asked; an officer sends no photos.
          consent: b.consent,
        },
        { officer: { office: b.office, districts: b.districts } },
      ),

    async verifyEmail(token: string, code: string) {
      const { user } = await signUpSession(token);
      if (user.email === null) throw badRequest('errors.auth.noEmailOnAccount');
      if (user.emailVerifiedAt) {
        return { message: message('success.auth.alreadyVerified'), token };
      }
      const codeId = await checkCode(user.id, 'EMAIL_VERIFICATION', code, 'verificationCode');
      const now = clock.now();
      const phone = await freshCode(now);
      const done = await repo.completeEmailVerification({ userId: user.id, codeId, phoneCode: phone.stored, now });
      if (!done) throw badRequest('errors.auth.codeUsed');
      await sendActivationSms(user, phone.code);
      return { message: message('success.auth.emailVerified'), token };
    },

    async resendOtp(actionType: OtpAction, token: string) {
      const { user } = await signUpSession(token);
      if (actionType === 'EMAIL_VERIFICATION' && user.email === null) throw badRequest('errors.auth.noEmailOnAccount');
      if (actionType === 'EMAIL_VERIFICATION' && user.emailVerifiedAt) {
        throw badRequest('errors.auth.alreadyVerified');
      }
      if (actionType === 'PHONE_ACTIVATION' && awaitsEmail(user)) {
        throw badRequest('errors.auth.verifyEmailFirst');
      }
      const now = clock.now();
      const { code, stored } = await freshCode(now);
      const problem = await repo.replaceCode(
        { userId: user.id, purpose: actionType, code: stored, now, since: new Date(now.getTime() - RESEND_WINDOW_MS) },
        (sentAt) => resendProblem(sentAt, now),
      );
      if (problem) throw tooMany(problem);
      if (actionType === 'EMAIL_VERIFICATION' && user.email !== null) {
        await mailer.send(
          verificationMail({
            to: user.email,
            language: user.language,
            code,
            link: verifyLink(token, code),
            resent: true,
          }),
        );
        return { message: message('success.auth.newCodeEmailed', { email: user.email }) };
      }
      await sendActivationSms(user, code);
      return { message: message('success.auth.newCodeBySms') };
    },

    /**
     * The sign-up token (from the sign-up reply, or the link sent after a right password: 0002) and the
     * SMS code prove the account's owner; the password was set at sign-up and stays (0041).
     */
    async activate(input: { otp: string; token: string }) {
      const { user } = await signUpSession(input.token);
      if (awaitsEmail(user)) throw badRequest('errors.auth.verifyEmailFirst');
      const codeId = await checkCode(user.id, 'PHONE_ACTIVATION', input.otp, 'otp');
      const done = await repo.activate({ userId: user.id, codeId, now: clock.now() });
      if (!done) throw badRequest('errors.auth.codeUsed');
      return { message: message('success.auth.activated'), identifier: user.email ?? user.phone };
    },

    resumeSignUp,

    /** A farmer registering on a basic phone (USSD): active at once, no password (phone-account.ts). */
    async registerFromPhone(input: PhoneFarmerInput, choices: ConsentChoices) {
      const now = clock.now();
      const user = await createPhoneFarmer(deps.db, input, now, { proven: true });
      if (user) await consent.record(user.id, { ...choices, service: true }, 'ussd', now);
      return user;
    },

    /**
     * A phone-only farmer signed up by someone they trust (a plant doctor, with the farmer's consent:
     * docs/decisions/0053): the same account as registerFromPhone, but not active until the farmer proves
     * the number (nobody sent it a code). A number that has an account already is a clash.
     */
    async createPhoneOnlyFarmer(input: Omit<PhoneFarmerInput, 'districtName'>, choices: ConsentChoices) {
      const districtName = districtByCode(input.district)?.name ?? input.district;
      const now = clock.now();
      const user = await createPhoneFarmer(deps.db, { ...input, districtName }, now, { proven: false });
      if (!user) throw clash('users_phone_unique');
      await consent.record(user.id, { ...choices, service: true }, 'clinic', now);
      return user;
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
