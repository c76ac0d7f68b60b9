import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  type completeProfileBody,
  e164,
  type expertRegisterBody,
  type farmerRegisterBody,
  type Language,
  type otpActionTypes,
  type UserRecord,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { contractMessage, message } from '../../i18n/i18n.ts';
import { AppError, badRequest, conflict, forbidden, tooMany, unauthenticated } from '../../lib/errors.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { type Account, type CodePurpose, createAuthRepo, uniqueViolation, type UserRow } from './auth.repo.ts';
import {
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  codeProblem,
  newCode,
  RESEND_WINDOW_MS,
  resendProblem,
  wrongCodeMessage,
} from './codes.ts';
import {
  activationLinkMail,
  addEmailMail,
  activationLinkSms,
  activationSms,
  resetMail,
  resetSms,
  verificationMail,
} from './messages.ts';
import { FORGET_FAILURES_AFTER_MS, waitBeforeNextTry, waitMessage } from './backoff.ts';
import { createDeviceCookies } from './device.ts';
import { normaliseEmail } from './email.ts';
import { hashSecret, needsRehash, verifyAgainstNothing, verifySecret } from './passwords.ts';

const SIGNUP_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
const RESET_TOKEN_TTL_MS = 3600 * 1000;
/** Per account (by email, known or not): reset requests in a window. */
export const RESET_MAX_REQUESTS = 3;
export const RESET_WINDOW_MS = 60 * 60 * 1000;
const MIN_AGE_YEARS = 13;
const EARLIEST_DOB = '1900-01-01';

type FarmerInput = z.output<typeof farmerRegisterBody>;
type ExpertInput = z.output<typeof expertRegisterBody>;
type ProfileInput = z.output<typeof completeProfileBody>;
type OtpAction = (typeof otpActionTypes)[number];

interface Logger {
  error(obj: object, msg: string): void;
}

/** What an add-email code is hashed as: the code only confirms the address it was sent to. */
const emailCodeSecret = (email: string, code: string) => `${email}\n${code}`;
const minutesUntil = (end: number, now: Date) => Math.max(1, Math.ceil((end - now.getTime()) / 60_000));

/** The address normalised, or the 400 with the contract's sentence for what is wrong with it. */
function emailOrThrow(raw: string): string {
  const normalised = normaliseEmail(raw);
  if ('problem' in normalised) {
    throw badRequest(contractMessage(normalised.problem), { email: contractMessage(normalised.problem) });
  }
  return normalised.email;
}

export function createAuthService(deps: ModuleDeps, log: Logger) {
  const { config, clock, mailer, sms, tokens, sessions } = deps;
  /** Tells the other processes' session caches and streams (docs/decisions/0021); the database already says so. */
  const revoked = (userId: number, sessionId?: string) =>
    deps.coordinator.publish({ type: 'session-revoked', userId, sessionId }).catch(() => {});
  const repo = createAuthRepo(deps.db);

  /** Ends one session family in the database, then in this process (cache, open streams). */
  async function endSession(familyId: string, userId: number) {
    await repo.revokeFamily(familyId, clock.now());
    sessions.ended({ sessionId: familyId });
    await revoked(userId, familyId);
  }
  const secret = config.jwt.refreshSecret;
  const hash = (token: string) => hashToken(token, secret);
  const verifyLink = (token: string, code: string) =>
    `${config.publicUrl}/auth/verify-email?token=${encodeURIComponent(token)}&verificationToken=${code}`;
  const activationLink = (token: string) => `${config.publicUrl}/auth/activation?token=${encodeURIComponent(token)}`;
  const devices = createDeviceCookies(secret, config.publicUrl.startsWith('https:'));

  async function freshCode(now: Date) {
    const code = newCode();
    return { code, stored: { codeHash: await hashSecret(code), expiresAt: new Date(now.getTime() + CODE_TTL_MS) } };
  }

  async function register(
    input: {
      email?: string;
      username: string;
      phone: string;
      password: string;
      role: 'farmer' | 'expert';
      language: Language;
      /** Already checked against the shipped list by the contract (issue 36). */
      district?: string;
    },
    details: Pick<Parameters<typeof repo.createAccount>[0], 'farmer' | 'expert'>,
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
        ...details,
        firstCode: email === null ? 'PHONE_ACTIVATION' : 'EMAIL_VERIFICATION',
        signUpTokenHash: hash(token),
        signUpExpiresAt: new Date(now.getTime() + SIGNUP_TOKEN_TTL_MS),
        code: stored,
        now,
      });
    } catch (err) {
      const index = uniqueViolation(err);
      if (index !== null) throw clash(index);
      throw err;
    }
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

  /** A phone-only sign-up: the SMS code is the first step; a failed SMS undoes the sign-up. */
  async function sendFirstActivationSms(user: UserRow, code: string, token: string) {
    try {
      await sms.send(user.phone, activationSms(user.language, code));
    } catch (err) {
      log.error({ err }, 'could not send the activation SMS; the sign-up was undone');
      await repo.deleteUser(user.id);
      throw new AppError('SERVICE_UNAVAILABLE', 'errors.auth.smsFailedTryLater', 503);
    }
    return {
      message: message('success.auth.codeBySmsToActivate'),
      token,
    };
  }

  function clash(index: string) {
    if (index.includes('username')) {
      return conflict('errors.auth.usernameTaken', { username: 'errors.auth.alreadyTaken' });
    }
    if (index.includes('phone')) {
      return conflict('errors.auth.phoneTaken', { phone_number: 'errors.auth.alreadyRegistered' });
    }
    return conflict('errors.auth.emailTaken', { email: 'errors.auth.alreadyRegistered' });
  }

  /** Whether the sign-up still waits for the email step (a phone-only account has none). */
  const awaitsEmail = (user: UserRow) => user.email !== null && !user.emailVerifiedAt;

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

  /** Checks a code for the user; a wrong code uses up one of the tries. Returns the stored code's id. */
  async function checkCode(userId: number, purpose: CodePurpose, code: string, field: string) {
    const stored = await repo.latestCode(userId, purpose);
    const problem = codeProblem(stored, clock.now());
    if (problem || !stored) {
      throw badRequest(problem ?? 'errors.auth.noActiveCode', {
        [field]: problem ?? message('errors.auth.noActiveCode'),
      });
    }
    if (!(await verifySecret(stored.codeHash, code))) {
      const attempts = await repo.recordWrongCode(stored.id, CODE_MAX_ATTEMPTS);
      const wrong = wrongCodeMessage(attempts);
      throw badRequest(wrong, { [field]: wrong });
    }
    return stored.id;
  }

  async function sendActivationSms(user: UserRow, code: string) {
    await sendSms(user.phone, activationSms(user.language, code));
  }

  async function sendSms(phone: string, text: string) {
    try {
      await sms.send(phone, text);
    } catch (err) {
      log.error({ err }, 'could not send the activation SMS');
      throw new AppError('SERVICE_UNAVAILABLE', 'errors.auth.smsFailed', 503);
    }
  }

  async function issueSession(user: UserRow) {
    const now = clock.now();
    const refresh = randomToken();
    const sessionId = randomUUID();
    await repo.insertRefreshToken({
      userId: user.id,
      familyId: sessionId,
      tokenHash: hash(refresh),
      expiresAt: new Date(now.getTime() + config.jwt.refreshTtlDays * 24 * 3600 * 1000),
      now,
    });
    return { access: await tokens.sign({ userId: user.id, role: user.role, sessionId }, now), refresh };
  }

  /** Refuses (429, how long to wait) while the back-off after failed password checks under `key` runs. */
  async function assertNoBackOff(key: string) {
    const row = await repo.peekThrottle(key);
    const wait = waitBeforeNextTry(row && { count: row.count, lastAt: row.windowStart }, clock.now());
    if (wait > 0) throw tooMany(waitMessage(wait));
  }

  /**
   * The back-off key of a sign-in: per known device (its signed cookie names this account), otherwise
   * per account by email, known or not, so strangers' failures never hold up the owner's own browser.
   */
  function loginKey(identifier: string, user: UserRow | undefined, cookieHeader: string | undefined) {
    const device = user ? devices.deviceOf(cookieHeader, user.id) : null;
    return device ? `login-device:${device}` : `login:${identifier}`;
  }

  /** The account a sign-in names: by E.164 phone number when it starts with +, otherwise by email. */
  async function findByIdentifier(raw: string): Promise<{ key: string; byPhone: boolean; user?: UserRow }> {
    const trimmed = raw.trim();
    if (trimmed.startsWith('+')) {
      const phone = `+${trimmed.slice(1).replace(/[\s().-]/g, '')}`;
      if (!e164.safeParse(phone).success) return { key: phone, byPhone: true };
      return { key: phone, byPhone: true, user: await repo.findUserByPhone(phone) };
    }
    const normalised = normaliseEmail(trimmed);
    // An address we would refuse at sign-up cannot have an account: answered like any unknown one.
    if (!('email' in normalised)) return { key: trimmed.toLowerCase(), byPhone: false };
    return { key: normalised.email, byPhone: false, user: await repo.findUserByEmail(normalised.email) };
  }

  /** Looks the account up by phone and sends it a reset code by SMS; runs after the reply. */
  async function sendResetCode(phone: string, now: Date) {
    const user = await repo.findUserByPhone(phone);
    if (!user) return;
    const { code, stored } = await freshCode(now);
    const problem = await repo.replaceCode(
      {
        userId: user.id,
        purpose: 'PASSWORD_RESET',
        code: stored,
        now,
        since: new Date(now.getTime() - RESEND_WINDOW_MS),
      },
      (sentAt) => resendProblem(sentAt, now),
    );
    // Too soon after the last code: nothing is sent, and the reply (already gone) said the same either way.
    if (problem) return;
    await sms.send(user.phone, resetSms(user.language, code));
  }

  /** Looks the account up and sends it a reset link; runs after the reply (see forgotPassword). */
  async function sendResetLink(email: string, now: Date) {
    const user = await repo.findUserByEmail(email);
    if (!user?.email) return;
    const token = randomToken();
    await repo.createResetToken({
      userId: user.id,
      tokenHash: hash(token),
      expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
      now,
    });
    const link = `${config.publicUrl}/auth/confirm-password-reset?token=${encodeURIComponent(token)}`;
    await mailer.send(resetMail({ to: user.email, language: user.language, link }));
  }

  /**
   * Login with the right password to an account that never finished signing up: the owner may have lost
   * the sign-up token, so a fresh one goes out with a new code for the missing step (email link and code
   * before verification; SMS code and an emailed activation link after). The resend throttle applies:
   * when it refuses, nothing is sent and the reply says when to try again. Returns the 403 to throw.
   */
  async function resumeSignUp(user: UserRow): Promise<AppError> {
    const verifying = awaitsEmail(user);
    const now = clock.now();
    const token = randomToken();
    const { code, stored } = await freshCode(now);
    const problem = await repo.replaceCode(
      {
        userId: user.id,
        purpose: verifying ? 'EMAIL_VERIFICATION' : 'PHONE_ACTIVATION',
        code: stored,
        now,
        since: new Date(now.getTime() - RESEND_WINDOW_MS),
        signUpToken: { tokenHash: hash(token), expiresAt: new Date(now.getTime() + SIGNUP_TOKEN_TTL_MS) },
      },
      (sentAt) => resendProblem(sentAt, now),
    );
    if (problem) {
      return forbidden(
        message(verifying ? 'errors.auth.notVerifiedWait' : 'errors.auth.notActivatedWait', { problem }),
      );
    }
    if (user.email === null) {
      // No email to carry the activation link: the SMS carries it with the code.
      await sendSms(user.phone, activationLinkSms(user.language, code, activationLink(token)));
      return forbidden('errors.auth.activationResentBySms');
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
    return forbidden(verifying ? 'errors.auth.verificationResent' : 'errors.auth.activationResent');
  }

  /** The caller's account, which has no email yet: adding one is for accounts made with a phone only. */
  async function phoneOnlyUser(userId: number): Promise<UserRow> {
    const user = await repo.findUserById(userId);
    if (!user) throw unauthenticated('errors.session.invalid');
    if (user.email !== null) throw badRequest('errors.auth.alreadyHasEmail');
    return user;
  }

  async function userRecord(userId: number): Promise<UserRecord> {
    const account = await repo.loadAccount(userId);
    if (!account) throw unauthenticated('errors.session.invalid');
    return toUserRecord(account);
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

    /**
     * Signs in. `cookieHeader` may carry the known-device cookie; the reply's `deviceCookie` is the
     * Set-Cookie header that marks this browser as known to the account.
     */
    async login(rawIdentifier: string, password: string, cookieHeader?: string) {
      const { key: identifier, byPhone, user } = await findByIdentifier(rawIdentifier);
      const key = loginKey(identifier, user, cookieHeader);
      await assertNoBackOff(key);
      const ok = user?.passwordHash
        ? await verifySecret(user.passwordHash, password)
        : await verifyAgainstNothing(password);
      if (!user?.passwordHash || !ok) {
        await repo.recordFailure(key, clock.now(), FORGET_FAILURES_AFTER_MS);
        throw unauthenticated(byPhone ? 'errors.auth.wrongPhoneLogin' : 'errors.auth.wrongLogin');
      }
      await repo.clearThrottle(key);
      if (needsRehash(user.passwordHash)) await repo.updatePasswordHash(user.id, await hashSecret(password));
      if (!user.activatedAt) throw await resumeSignUp(user);
      return {
        ...(await issueSession(user)),
        user: await userRecord(user.id),
        deviceCookie: devices.issue(user.id),
      };
    },

    async refresh(refreshToken: string) {
      const row = await repo.findRefreshToken(hash(refreshToken));
      const now = clock.now();
      if (!row) throw unauthenticated('errors.session.invalid');
      if (row.usedAt || row.revokedAt) {
        // A token that was already rotated away is being replayed: end the whole session family.
        await endSession(row.familyId, row.userId);
        throw unauthenticated('errors.session.endedThis');
      }
      if (row.expiresAt.getTime() <= now.getTime()) {
        throw new AppError('TOKEN_EXPIRED', 'errors.session.expired', 401);
      }
      const user = await repo.findUserById(row.userId);
      if (!user?.activatedAt) throw unauthenticated('errors.session.invalid');
      const next = randomToken();
      const rotated = await repo.rotateRefreshToken({
        id: row.id,
        next: { tokenHash: hash(next), expiresAt: row.expiresAt },
        now,
      });
      if (!rotated) {
        await endSession(row.familyId, row.userId);
        throw unauthenticated('errors.session.endedThis');
      }
      return {
        access: await tokens.sign({ userId: user.id, role: user.role, sessionId: row.familyId }, now),
        refresh: next,
      };
    },

    async logout(refreshToken: string) {
      const row = await repo.findRefreshToken(hash(refreshToken));
      if (row) await endSession(row.familyId, row.userId);
      return { message: message('success.auth.signedOut') };
    },

    async forgotPassword(rawEmail: string) {
      const now = clock.now();
      const normalised = normaliseEmail(rawEmail);
      const email = 'email' in normalised ? normalised.email : rawEmail.toLowerCase();
      const throttle = await repo.hitThrottle(`reset:${email}`, now, RESET_WINDOW_MS);
      if (throttle.count > RESET_MAX_REQUESTS) {
        const minutes = minutesUntil(throttle.windowStart.getTime() + RESET_WINDOW_MS, now);
        throw tooMany(message('errors.auth.tooManyResets', { count: minutes }));
      }
      // Everything that depends on whether the account exists (the lookup, the token, the mail) runs
      // after the reply: the reply is written in this turn of the event loop, setImmediate comes after.
      // So both answers do the same work and take the same time (L8).
      if ('email' in normalised) {
        setImmediate(() => {
          sendResetLink(email, now).catch((err) => log.error({ err }, 'could not send the password reset email'));
        });
      }
      return { message: message('success.auth.forgotPassword') };
    },

    /** The SMS way of forgotPassword: same throttle per number, same neutral reply, the work after it. */
    async forgotPasswordByPhone(phone: string) {
      const now = clock.now();
      const throttle = await repo.hitThrottle(`reset:${phone}`, now, RESET_WINDOW_MS);
      if (throttle.count > RESET_MAX_REQUESTS) {
        const minutes = minutesUntil(throttle.windowStart.getTime() + RESET_WINDOW_MS, now);
        throw tooMany(message('errors.auth.tooManyResets', { count: minutes }));
      }
      setImmediate(() => {
        sendResetCode(phone, now).catch((err) => log.error({ err }, 'could not send the password reset SMS'));
      });
      return { message: message('success.auth.forgotPasswordByPhone') };
    },

    /** Sets a new password with the SMS reset code; a wrong code uses up one of its tries. */
    async resetPasswordByCode(input: { phone: string; code: string; newPassword: string }) {
      const user = await repo.findUserByPhone(input.phone);
      // An unknown number reads like a known one without a live code.
      if (!user) {
        const problem = codeProblem(undefined, clock.now()) ?? message('errors.auth.invalidResetCode');
        throw badRequest(problem, { code: problem });
      }
      const codeId = await checkCode(user.id, 'PASSWORD_RESET', input.code, 'code');
      const passwordHash = await hashSecret(input.newPassword);
      const done = await repo.resetPasswordWithCode({ codeId, userId: user.id, passwordHash, now: clock.now() });
      if (!done) throw badRequest('errors.auth.invalidResetCode');
      sessions.ended({ userId: user.id });
      await revoked(user.id);
      return { message: message('success.auth.passwordReset') };
    },

    async resetPassword(token: string, newPassword: string) {
      const row = await repo.findActionToken(hash(token), 'password_reset');
      const now = clock.now();
      if (!row || row.usedAt || row.expiresAt.getTime() <= now.getTime()) throw badRequest('errors.auth.invalidReset');
      const passwordHash = await hashSecret(newPassword);
      const done = await repo.resetPassword({ tokenId: row.id, userId: row.userId, passwordHash, now });
      if (!done) throw badRequest('errors.auth.invalidReset');
      sessions.ended({ userId: row.userId });
      await revoked(row.userId);
      return { message: message('success.auth.passwordReset') };
    },

    async changePassword(userId: number, oldPassword: string, newPassword: string) {
      const user = await repo.findUserById(userId);
      if (!user) throw unauthenticated('errors.session.invalid');
      // Its own back-off: failed sign-ins by strangers do not stop the signed-in owner here.
      const key = `change-password:${user.id}`;
      await assertNoBackOff(key);
      if (!user.passwordHash || !(await verifySecret(user.passwordHash, oldPassword))) {
        await repo.recordFailure(key, clock.now(), FORGET_FAILURES_AFTER_MS);
        throw badRequest('errors.auth.wrongCurrentPassword', { oldPassword: 'errors.auth.notCorrect' });
      }
      if (oldPassword === newPassword) {
        throw badRequest('errors.auth.samePassword', { newPassword: 'errors.auth.sameAsCurrent' });
      }
      await repo.clearThrottle(key);
      await repo.changePassword({ userId, passwordHash: await hashSecret(newPassword), now: clock.now() });
      sessions.ended({ userId });
      await revoked(userId);
      return {
        message: message('success.auth.passwordChanged'),
        ...(await issueSession(user)),
      };
    },

    async completeProfile(userId: number, input: ProfileInput) {
      const now = clock.now();
      const latest = new Date(now);
      latest.setUTCFullYear(latest.getUTCFullYear() - MIN_AGE_YEARS);
      const latestDob = latest.toISOString().slice(0, 10);
      if (input.dob < EARLIEST_DOB || input.dob > latestDob) {
        const problem =
          input.dob > latestDob
            ? message('errors.auth.tooYoung', { years: MIN_AGE_YEARS, latest: latestDob })
            : message('errors.auth.bornTooEarly', { earliest: EARLIEST_DOB });
        throw badRequest(problem, { dob: problem });
      }
      if (!(await repo.findUserById(userId))) throw unauthenticated('errors.session.invalid');
      await repo.upsertProfile(
        userId,
        {
          customerTypeId: input.customerTypeId ?? null,
          idType: input.idType,
          idNumber: input.idNumber,
          organisationName: input.organisationName,
          firstName: input.firstName,
          middleName: input.middleName,
          lastName: input.lastName,
          gender: input.gender,
          physicalAddress: input.physicalAddress,
          nationality: input.nationality,
          dob: input.dob,
          occupation: input.occupation,
        },
        now,
      );
      return userRecord(userId);
    },

    /**
     * Sends a code to an email a phone-only account wants to add. The code is hashed together with the
     * address, so it confirms only that address. A taken address is refused like at sign-up.
     */
    async addEmail(userId: number, rawEmail: string) {
      const user = await phoneOnlyUser(userId);
      const email = emailOrThrow(rawEmail);
      if (await repo.findUserByEmail(email)) throw clash('users_email_unique');
      const now = clock.now();
      const code = newCode();
      const stored = {
        codeHash: await hashSecret(emailCodeSecret(email, code)),
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      };
      const problem = await repo.replaceCode(
        { userId, purpose: 'ADD_EMAIL', code: stored, now, since: new Date(now.getTime() - RESEND_WINDOW_MS) },
        (sentAt) => resendProblem(sentAt, now),
      );
      if (problem) throw tooMany(problem);
      try {
        await mailer.send(addEmailMail({ to: email, language: user.language, code }));
      } catch (err) {
        log.error({ err }, 'could not send the add-email code');
        throw new AppError('SERVICE_UNAVAILABLE', 'errors.auth.emailFailed', 503);
      }
      return { message: message('success.auth.addEmailCode', { email: email }) };
    },

    async confirmEmail(userId: number, rawEmail: string, code: string) {
      await phoneOnlyUser(userId);
      const email = emailOrThrow(rawEmail);
      const codeId = await checkCode(userId, 'ADD_EMAIL', emailCodeSecret(email, code), 'code');
      let done: boolean;
      try {
        done = await repo.addEmail({ userId, codeId, email: email, now: clock.now() });
      } catch (err) {
        if (uniqueViolation(err) !== null) throw clash('users_email_unique');
        throw err;
      }
      if (!done) throw badRequest('errors.auth.codeUsed');
      return userRecord(userId);
    },

    me: userRecord,

    async setLanguage(userId: number, language: Language) {
      if (!(await repo.setLanguage(userId, language))) throw unauthenticated('errors.session.invalid');
      return { language };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;

export function toUserRecord({ user, farmer, expert, profile }: Account): UserRecord {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    phone: user.phone,
    language: user.language,
    district: user.district,
    accountComplete: profile !== null,
    needsDistrict: user.role === 'farmer' && user.district === null,
    profile: profile && {
      idType: profile.idType,
      idNumber: profile.idNumber,
      organisationName: profile.organisationName,
      firstName: profile.firstName,
      middleName: profile.middleName,
      lastName: profile.lastName,
      gender: profile.gender,
      physicalAddress: profile.physicalAddress,
      nationality: profile.nationality,
      dob: profile.dob,
      occupation: profile.occupation,
    },
    farmer: farmer && {
      farm_location: farmer.farmLocation,
      farm_size: farmer.farmSize,
      crop_types: farmer.cropTypes,
      sms_alerts: user.smsAlerts,
    },
    expert: expert && {
      areas_of_expertise: expert.areasOfExpertise,
      certifications: expert.certifications,
      bio: expert.bio,
      experience_years: expert.experienceYears,
      institution: expert.institution,
      languages_spoken: expert.languagesSpoken,
      social_links: expert.socialLinks,
    },
    vetting: expert && {
      status: expert.vettingStatus,
      reason: expert.vettingReason,
      decided_at: expert.vettedAt?.toISOString() ?? null,
    },
    account: {
      accountNumber: `KUTU-${String(user.id).padStart(6, '0')}`,
      accountType: user.role === 'farmer' ? 'Farmer' : user.role === 'expert' ? 'Expert' : 'Administrator',
      isActivated: user.activatedAt !== null,
      isPhoneVerified: user.phoneVerifiedAt !== null,
      isEmailVerified: user.emailVerifiedAt !== null,
      website: null,
    },
  };
}
