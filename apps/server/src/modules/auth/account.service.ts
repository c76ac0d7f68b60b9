import type { z } from 'zod';
import type { completeProfileBody, Language } from '@kutu/contract';
import { message } from '../../i18n/i18n.ts';
import { AppError, badRequest, tooMany, unauthenticated } from '../../lib/errors.ts';
import { uniqueViolation, type UserRow } from './auth.repo.ts';
import { CODE_TTL_MS, newCode, RESEND_WINDOW_MS, resendProblem } from './codes.ts';
import { addEmailMail } from './messages.ts';
import { FORGET_FAILURES_AFTER_MS } from './backoff.ts';
import { hashSecret, verifySecret } from './passwords.ts';
import { type AuthShared, clash, emailOrThrow } from './auth.shared.ts';

/** A password checked against its stored hash, for the privacy module's erasure (which asks for it). */
export { verifySecret } from './passwords.ts';
/** A role's own facts as other modules' queries join them (consultations' slots, vetting's applications, clinic records). */
export { expertFacts, farmerFacts } from './facts.repo.ts';
/** The try-out farmers of `npm run outbreak:demo` (and of its tests). */
export { addDemoFarmer, countDemoFarmers, DEMO_USERNAME_PREFIX, removeDemoUsers } from './demo-farmers.ts';

const MIN_AGE_YEARS = 13;
const EARLIEST_DOB = '1900-01-01';

type ProfileInput = z.output<typeof completeProfileBody>;

/** What an add-email code is hashed as: the code only confirms the address it was sent to. */
const emailCodeSecret = (email: string, code: string) => `${email}\n${code}`;

/** The signed-in account: its password, profile (account completion), email for a phone-only account, language. */
export function createAccountService(shared: AuthShared) {
  const { deps, log, repo, revoked, checkCode, issueSession, assertNoBackOff, userRecord } = shared;
  const { clock, mailer, sessions } = deps;

  /** The caller's account, which has no email yet: adding one is for accounts made with a phone only. */
  async function phoneOnlyUser(userId: number): Promise<UserRow> {
    const user = await repo.findUserById(userId);
    if (!user) throw unauthenticated('errors.session.invalid');
    if (user.email !== null) throw badRequest('errors.auth.alreadyHasEmail');
    return user;
  }

  return {
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

    /** Signs the user out everywhere, in every process (an administrator withdrew their approval). */
    async endAllSessions(userId: number) {
      await repo.revokeAllOf(userId, clock.now());
      sessions.ended({ userId });
      await revoked(userId);
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

    async setLanguage(userId: number, language: Language) {
      if (!(await repo.setLanguage(userId, language))) throw unauthenticated('errors.session.invalid');
      return { language };
    },
  };
}
