import { message } from '../../i18n/i18n.ts';
import { badRequest, tooMany } from '../../lib/errors.ts';
import { randomToken } from '../../lib/tokens.ts';
import { codeProblem, RESEND_WINDOW_MS, resendProblem } from './codes.ts';
import { resetMail, resetSms } from './messages.ts';
import { normaliseEmail } from './email.ts';
import { hashSecret } from './passwords.ts';
import type { AuthShared } from './auth.shared.ts';

const RESET_TOKEN_TTL_MS = 3600 * 1000;
/** Per account (by email, known or not): reset requests in a window. */
export const RESET_MAX_REQUESTS = 3;
export const RESET_WINDOW_MS = 60 * 60 * 1000;

const minutesUntil = (end: number, now: Date) => Math.max(1, Math.ceil((end - now.getTime()) / 60_000));

/** Password recovery: a reset link by email or a reset code by SMS, and the new password with either. */
export function createRecoveryService(shared: AuthShared) {
  const { deps, log, repo, hash, revoked, freshCode, checkCode } = shared;
  const { config, clock, mailer, sms, sessions } = deps;

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

  return {
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
  };
}
