import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { Role } from '@kutu/contract';
import { refreshTokens, users } from '../../db/schema/index.ts';

/** Sessions: one family of refresh tokens each, rotated on every refresh. */
export function createSessionsRepo(db: Db) {
  return {
    insertRefreshToken: (row: { userId: number; familyId: string; tokenHash: string; expiresAt: Date; now: Date }) =>
      db.insert(refreshTokens).values({ ...row, createdAt: row.now }),

    findRefreshToken: async (tokenHash: string) =>
      (await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)))[0],

    /** Marks a refresh token used and stores its successor; false if it was used or revoked meanwhile. */
    rotateRefreshToken: (input: { id: number; next: { tokenHash: string; expiresAt: Date }; now: Date }) =>
      db.transaction(async (tx) => {
        const [old] = await tx
          .update(refreshTokens)
          .set({ usedAt: input.now })
          .where(and(eq(refreshTokens.id, input.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
          .returning();
        if (!old) return false;
        await tx
          .insert(refreshTokens)
          .values({ userId: old.userId, familyId: old.familyId, ...input.next, createdAt: input.now });
        return true;
      }),

    /**
     * A session is live while its family holds a refresh token that is neither used nor revoked, and
     * the token's role is the account's: a token signed with a leaked key cannot claim another role.
     */
    async sessionIsLive(session: { userId: number; sessionId: string; role: Role }) {
      const rows = await db
        .select({ id: refreshTokens.id })
        .from(refreshTokens)
        .innerJoin(users, eq(users.id, refreshTokens.userId))
        .where(
          and(
            eq(refreshTokens.familyId, session.sessionId),
            eq(refreshTokens.userId, session.userId),
            eq(users.role, session.role),
            isNull(refreshTokens.usedAt),
            isNull(refreshTokens.revokedAt),
          ),
        )
        .limit(1);
      return rows.length === 1;
    },

    /** Ends every session of the user (an approval withdrawn). */
    revokeAllOf: (userId: number, now: Date) =>
      db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt))),
    revokeFamily: (familyId: string, now: Date) =>
      db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt))),
  };
}

/** Ends every session of the user (a password reset or change). */
export function revokeUserSessions(tx: Tx, userId: number, now: Date) {
  return tx
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
