import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { actionTokens, users } from '../../db/schema/index.ts';
import { consumeCode } from './codes.repo.ts';
import { revokeUserSessions } from './sessions.repo.ts';

/** Password resets (by link or SMS code) and changes; each ends the account's sessions. */
export function createPasswordsRepo(db: Db) {
  return {
    /** A new reset link; older unused ones stop working (only the newest email's link is live). */
    createResetToken: (input: { userId: number; tokenHash: string; expiresAt: Date; now: Date }) =>
      db.transaction(async (tx) => {
        await retireResetLinks(tx, input.userId, input.now);
        await tx.insert(actionTokens).values({ ...input, purpose: 'password_reset', createdAt: input.now });
      }),

    /** Uses a live reset token, sets the password, retires other reset links, ends every session. */
    resetPassword: (input: { tokenId: number; userId: number; passwordHash: string; now: Date }) =>
      db.transaction(async (tx) => {
        const used = await tx
          .update(actionTokens)
          .set({ usedAt: input.now })
          .where(
            and(eq(actionTokens.id, input.tokenId), isNull(actionTokens.usedAt), gt(actionTokens.expiresAt, input.now)),
          )
          .returning({ id: actionTokens.id });
        if (used.length === 0) return false;
        await tx.update(users).set({ passwordHash: input.passwordHash }).where(eq(users.id, input.userId));
        await retireResetLinks(tx, input.userId, input.now);
        await revokeUserSessions(tx, input.userId, input.now);
        return true;
      }),

    /** Uses an SMS reset code, sets the password, retires reset links, ends every session. */
    resetPasswordWithCode: (input: { codeId: number; userId: number; passwordHash: string; now: Date }) =>
      db.transaction(async (tx) => {
        if (!(await consumeCode(tx, input.codeId, input.now))) return false;
        await tx.update(users).set({ passwordHash: input.passwordHash }).where(eq(users.id, input.userId));
        await retireResetLinks(tx, input.userId, input.now);
        await revokeUserSessions(tx, input.userId, input.now);
        return true;
      }),

    /** Sets a new password, ends every session and retires reset links sent before. */
    changePassword: (input: { userId: number; passwordHash: string; now: Date }) =>
      db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash: input.passwordHash }).where(eq(users.id, input.userId));
        await retireResetLinks(tx, input.userId, input.now);
        await revokeUserSessions(tx, input.userId, input.now);
      }),

    /** The same password under current hashing parameters (rehash on sign-in). */
    updatePasswordHash: (userId: number, passwordHash: string) =>
      db.update(users).set({ passwordHash }).where(eq(users.id, userId)),
  };
}

function retireResetLinks(tx: Tx, userId: number, now: Date) {
  return tx
    .update(actionTokens)
    .set({ usedAt: now })
    .where(
      and(eq(actionTokens.userId, userId), eq(actionTokens.purpose, 'password_reset'), isNull(actionTokens.usedAt)),
    );
}
