import { e164Form } from '@kutu/contract';
import { message } from '../../i18n/i18n.ts';
import { AppError, unauthenticated } from '../../lib/errors.ts';
import { randomToken } from '../../lib/tokens.ts';
import type { UserRow } from './auth.repo.ts';
import { FORGET_FAILURES_AFTER_MS } from './backoff.ts';
import { createDeviceCookies } from './device.ts';
import { normaliseEmail } from './email.ts';
import { hashSecret, needsRehash, verifyAgainstNothing, verifySecret } from './passwords.ts';
import type { AuthShared } from './auth.shared.ts';
import type { SignupService } from './signup.service.ts';

/** Sessions: sign in (with the known-device back-off), refresh, sign out, and who is signed in. */
export function createSessionService(shared: AuthShared, signup: Pick<SignupService, 'resumeSignUp'>) {
  const { deps, repo, hash, revoked, issueSession, assertNoBackOff, userRecord } = shared;
  const { config, clock, tokens, sessions } = deps;
  const devices = createDeviceCookies(config.jwt.refreshSecret, config.publicUrl.startsWith('https:'));

  /** Ends one session family in the database, then in this process (cache, open streams). */
  async function endSession(familyId: string, userId: number) {
    await repo.revokeFamily(familyId, clock.now());
    sessions.ended({ sessionId: familyId });
    await revoked(userId, familyId);
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
      if (!e164Form.safeParse(phone).success) return { key: phone, byPhone: true };
      return { key: phone, byPhone: true, user: await repo.findUserByPhone(phone) };
    }
    const normalised = normaliseEmail(trimmed);
    // An address we would refuse at sign-up cannot have an account: answered like any unknown one.
    if (!('email' in normalised)) return { key: trimmed.toLowerCase(), byPhone: false };
    return { key: normalised.email, byPhone: false, user: await repo.findUserByEmail(normalised.email) };
  }

  return {
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
      if (!user.activatedAt) throw await signup.resumeSignUp(user);
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

    me: userRecord,
  };
}
