import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Language } from '@kutu/contract';
import type { Message } from '../../i18n/i18n.ts';
import type { Db, Tx } from '../../db/client.ts';
import {
  actionTokens,
  authThrottle,
  expertProfiles,
  farmerProfiles,
  otpCodes,
  refreshTokens,
  userProfiles,
  users,
} from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;
export type CodePurpose = (typeof otpCodes.$inferInsert)['purpose'];
type NewUser = Pick<
  typeof users.$inferInsert,
  'email' | 'username' | 'role' | 'phone' | 'passwordHash' | 'language' | 'district'
>;
type FarmerDetails = Omit<typeof farmerProfiles.$inferInsert, 'userId'>;
type ExpertDetails = Omit<typeof expertProfiles.$inferInsert, 'userId'>;
export type ProfileValues = Omit<typeof userProfiles.$inferInsert, 'userId' | 'updatedAt'>;

export interface NewCode {
  codeHash: string;
  expiresAt: Date;
}

/** The name of the unique index a failed insert ran into, when that is why it failed. */
export function uniqueViolation(err: unknown): string | null {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as never) {
    if (e.code === '23505') return e.constraint ?? '';
  }
  return null;
}

export function createAuthRepo(db: Db) {
  async function issueCode(tx: Tx, userId: number, purpose: CodePurpose, code: NewCode, now: Date) {
    await tx
      .update(otpCodes)
      .set({ invalidated: true })
      .where(
        and(
          eq(otpCodes.userId, userId),
          eq(otpCodes.purpose, purpose),
          isNull(otpCodes.consumedAt),
          eq(otpCodes.invalidated, false),
        ),
      );
    await tx.insert(otpCodes).values({ userId, purpose, ...code, createdAt: now });
  }

  /** Marks a code used; false when another request used or invalidated it first. */
  async function consumeCode(tx: Tx, codeId: number, now: Date) {
    const rows = await tx
      .update(otpCodes)
      .set({ consumedAt: now })
      .where(and(eq(otpCodes.id, codeId), isNull(otpCodes.consumedAt), eq(otpCodes.invalidated, false)))
      .returning({ id: otpCodes.id });
    return rows.length === 1;
  }

  return {
    findUserByEmail: async (email: string) =>
      (await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`))[0],

    findUserByPhone: async (phone: string) => (await db.select().from(users).where(eq(users.phone, phone)))[0],

    findUserById: async (id: number) => (await db.select().from(users).where(eq(users.id, id)))[0],

    /** Existing accounts using this email or username (case-insensitive), or this phone number. */
    findClashes: (email: string | null, username: string, phone: string) =>
      db
        .select({ email: users.email, username: users.username, phone: users.phone })
        .from(users)
        .where(
          sql`lower(${users.email}) = lower(${email}) or lower(${users.username}) = lower(${username}) or ${users.phone} = ${phone}`,
        ),

    /**
     * The user, their farmer or expert details, the sign-up token and the first code, at once: an email
     * code, or the SMS activation code when the farmer signed up without an email.
     */
    createAccount: (input: {
      firstCode: 'EMAIL_VERIFICATION' | 'PHONE_ACTIVATION';
      user: NewUser;
      farmer?: FarmerDetails;
      expert?: ExpertDetails;
      signUpTokenHash: string;
      signUpExpiresAt: Date;
      code: NewCode;
      now: Date;
    }) =>
      db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ ...input.user, createdAt: input.now })
          .returning();
        if (input.farmer) await tx.insert(farmerProfiles).values({ userId: user.id, ...input.farmer });
        if (input.expert) await tx.insert(expertProfiles).values({ userId: user.id, ...input.expert });
        await tx.insert(actionTokens).values({
          userId: user.id,
          purpose: 'signup',
          tokenHash: input.signUpTokenHash,
          expiresAt: input.signUpExpiresAt,
          createdAt: input.now,
        });
        await issueCode(tx, user.id, input.firstCode, input.code, input.now);
        return user;
      }),

    deleteUser: (id: number) => db.delete(users).where(eq(users.id, id)),

    findActionToken: async (tokenHash: string, purpose: 'signup' | 'password_reset') =>
      (
        await db
          .select()
          .from(actionTokens)
          .where(and(eq(actionTokens.tokenHash, tokenHash), eq(actionTokens.purpose, purpose)))
      )[0],

    latestCode: async (userId: number, purpose: CodePurpose) =>
      (
        await db
          .select()
          .from(otpCodes)
          .where(and(eq(otpCodes.userId, userId), eq(otpCodes.purpose, purpose)))
          .orderBy(desc(otpCodes.id))
          .limit(1)
      )[0],

    /** Counts a wrong try; the code is invalidated once `maxAttempts` is reached. Returns tries used. */
    async recordWrongCode(codeId: number, maxAttempts: number) {
      const [row] = await db
        .update(otpCodes)
        .set({
          attempts: sql`${otpCodes.attempts} + 1`,
          invalidated: sql`${otpCodes.invalidated} or ${otpCodes.attempts} + 1 >= ${maxAttempts}`,
        })
        .where(eq(otpCodes.id, codeId))
        .returning({ attempts: otpCodes.attempts });
      return row?.attempts ?? maxAttempts;
    },

    /**
     * Sends a new code in place of the older ones unless `check` (given when recent codes were sent)
     * names a problem, which is returned instead (nothing is written then). With `signUpToken`, a new
     * sign-up token is stored in the same transaction. The account row is locked so concurrent requests
     * cannot both pass the check.
     */
    replaceCode: (
      input: {
        userId: number;
        purpose: CodePurpose;
        code: NewCode;
        now: Date;
        since: Date;
        signUpToken?: { tokenHash: string; expiresAt: Date };
      },
      check: (sentAt: Date[]) => Message | null,
    ) =>
      db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for('update');
        const recent = await tx
          .select({ createdAt: otpCodes.createdAt })
          .from(otpCodes)
          .where(
            and(
              eq(otpCodes.userId, input.userId),
              eq(otpCodes.purpose, input.purpose),
              gt(otpCodes.createdAt, input.since),
            ),
          );
        const problem = check(recent.map((r) => r.createdAt));
        if (problem) return problem;
        await issueCode(tx, input.userId, input.purpose, input.code, input.now);
        if (input.signUpToken) {
          await tx.insert(actionTokens).values({
            userId: input.userId,
            purpose: 'signup',
            tokenHash: input.signUpToken.tokenHash,
            expiresAt: input.signUpToken.expiresAt,
            createdAt: input.now,
          });
        }
        return null;
      }),

    /** Uses the email code, marks the email verified and stores the phone code. False if the code was used. */
    completeEmailVerification: (input: { userId: number; codeId: number; phoneCode: NewCode; now: Date }) =>
      db.transaction(async (tx) => {
        if (!(await consumeCode(tx, input.codeId, input.now))) return false;
        await tx.update(users).set({ emailVerifiedAt: input.now }).where(eq(users.id, input.userId));
        await issueCode(tx, input.userId, 'PHONE_ACTIVATION', input.phoneCode, input.now);
        return true;
      }),

    /**
     * Uses the phone code, activates the account (its password was set at sign-up) and retires its
     * sign-up tokens (all of them: signing in to a stuck account issues new ones, and older links may
     * still be unused).
     */
    activate: (input: { userId: number; codeId: number; now: Date }) =>
      db.transaction(async (tx) => {
        if (!(await consumeCode(tx, input.codeId, input.now))) return false;
        await tx
          .update(users)
          .set({ phoneVerifiedAt: input.now, activatedAt: input.now })
          .where(eq(users.id, input.userId));
        await tx
          .update(actionTokens)
          .set({ usedAt: input.now })
          .where(
            and(eq(actionTokens.userId, input.userId), eq(actionTokens.purpose, 'signup'), isNull(actionTokens.usedAt)),
          );
        return true;
      }),

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

    /** Uses the code and sets the verified email, only while the account has none; false otherwise. */
    addEmail: (input: { userId: number; codeId: number; email: string; now: Date }) =>
      db.transaction(async (tx) => {
        if (!(await consumeCode(tx, input.codeId, input.now))) return false;
        const rows = await tx
          .update(users)
          .set({ email: input.email, emailVerifiedAt: input.now })
          .where(and(eq(users.id, input.userId), isNull(users.email)))
          .returning({ id: users.id });
        return rows.length === 1;
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

    /** A session is live while its family holds a refresh token that is neither used nor revoked. */
    async sessionIsLive(session: { userId: number; sessionId: string }) {
      const rows = await db
        .select({ id: refreshTokens.id })
        .from(refreshTokens)
        .where(
          and(
            eq(refreshTokens.familyId, session.sessionId),
            eq(refreshTokens.userId, session.userId),
            isNull(refreshTokens.usedAt),
            isNull(refreshTokens.revokedAt),
          ),
        )
        .limit(1);
      return rows.length === 1;
    },

    revokeFamily: (familyId: string, now: Date) =>
      db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt))),

    /** Counts one event in a fixed window (restarting an expired window); returns the count. */
    async hitThrottle(key: string, now: Date, windowMs: number) {
      const cutoff = new Date(now.getTime() - windowMs).toISOString();
      const [row] = await db
        .insert(authThrottle)
        .values({ key, count: 1, windowStart: now })
        .onConflictDoUpdate({
          target: authThrottle.key,
          set: {
            count: sql`case when ${authThrottle.windowStart} <= ${cutoff}::timestamptz then 1 else ${authThrottle.count} + 1 end`,
            windowStart: sql`case when ${authThrottle.windowStart} <= ${cutoff}::timestamptz then ${now.toISOString()}::timestamptz else ${authThrottle.windowStart} end`,
          },
        })
        .returning();
      return row;
    },

    /**
     * Counts a failed sign-in for the back-off: here `windowStart` holds the time of the last failure,
     * and the count restarts when the previous failure is older than `forgetAfterMs`.
     */
    async recordFailure(key: string, now: Date, forgetAfterMs: number) {
      const cutoff = new Date(now.getTime() - forgetAfterMs).toISOString();
      await db
        .insert(authThrottle)
        .values({ key, count: 1, windowStart: now })
        .onConflictDoUpdate({
          target: authThrottle.key,
          set: {
            count: sql`case when ${authThrottle.windowStart} <= ${cutoff}::timestamptz then 1 else ${authThrottle.count} + 1 end`,
            windowStart: now,
          },
        });
    },

    peekThrottle: async (key: string) => (await db.select().from(authThrottle).where(eq(authThrottle.key, key)))[0],

    clearThrottle: (key: string) => db.delete(authThrottle).where(eq(authThrottle.key, key)),

    /** Sets the account's language; false when there is no such user. */
    async setLanguage(userId: number, language: Language) {
      const rows = await db.update(users).set({ language }).where(eq(users.id, userId)).returning({ id: users.id });
      return rows.length > 0;
    },

    upsertProfile: (userId: number, values: ProfileValues, now: Date) =>
      db
        .insert(userProfiles)
        .values({ userId, ...values, updatedAt: now })
        .onConflictDoUpdate({ target: userProfiles.userId, set: { ...values, updatedAt: now } }),

    /** Everything the user record shows, in one query. */
    async loadAccount(userId: number) {
      const [row] = await db
        .select({ user: users, farmer: farmerProfiles, expert: expertProfiles, profile: userProfiles })
        .from(users)
        .leftJoin(farmerProfiles, eq(farmerProfiles.userId, users.id))
        .leftJoin(expertProfiles, eq(expertProfiles.userId, users.id))
        .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
        .where(eq(users.id, userId));
      return row;
    },
  };
}
export type AuthRepo = ReturnType<typeof createAuthRepo>;
export type Account = NonNullable<Awaited<ReturnType<AuthRepo['loadAccount']>>>;

function retireResetLinks(tx: Tx, userId: number, now: Date) {
  return tx
    .update(actionTokens)
    .set({ usedAt: now })
    .where(
      and(eq(actionTokens.userId, userId), eq(actionTokens.purpose, 'password_reset'), isNull(actionTokens.usedAt)),
    );
}

function revokeUserSessions(tx: Tx, userId: number, now: Date) {
  return tx
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
