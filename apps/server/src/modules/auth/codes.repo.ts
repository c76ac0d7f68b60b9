import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { type Message, message } from '../../i18n/i18n.ts';
import type { Db, Tx } from '../../db/client.ts';
import { actionTokens, otpCodes, users } from '../../db/schema/index.ts';

export type CodePurpose = (typeof otpCodes.$inferInsert)['purpose'];

export type StoredOtp = typeof otpCodes.$inferSelect;
export interface TriedOtp {
  id: number;
  attempts: number;
  consumedAt: Date | null;
  createdAt: Date;
}

export interface NewCode {
  codeHash: string;
  expiresAt: Date;
}

/** Sends a new code: older live codes of the same purpose stop working. */
export async function issueCode(tx: Tx, userId: number, purpose: CodePurpose, code: NewCode, now: Date) {
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
export async function consumeCode(tx: Tx, codeId: number, now: Date) {
  const rows = await tx
    .update(otpCodes)
    .set({ consumedAt: now })
    .where(and(eq(otpCodes.id, codeId), isNull(otpCodes.consumedAt), eq(otpCodes.invalidated, false)))
    .returning({ id: otpCodes.id });
  return rows.length === 1;
}

/** One-time codes and sign-up links: sending, checking, and what a right code does (verify, activate, add an email). */
export function createCodesRepo(db: Db) {
  return {
    /** The code last sent for this purpose (a sign-in to an unfinished sign-up asks whether it still works). */
    latestCode: async (userId: number, purpose: CodePurpose) =>
      (
        await db
          .select()
          .from(otpCodes)
          .where(and(eq(otpCodes.userId, userId), eq(otpCodes.purpose, purpose)))
          .orderBy(desc(otpCodes.id))
          .limit(1)
      )[0],

    findActionToken: async (tokenHash: string, purpose: 'signup' | 'password_reset') =>
      (
        await db
          .select()
          .from(actionTokens)
          .where(and(eq(actionTokens.tokenHash, tokenHash), eq(actionTokens.purpose, purpose)))
      )[0],

    /**
     * Counts one try of the newest code of `purpose` before it is judged (docs/decisions/0079): under the
     * account's row lock, `check` sees that code and the codes sent since `since`, and either names why no
     * try is allowed (nothing is written) or the try is counted. So tries sent at once are judged one by
     * one up to the limit, never all. Returns the code with the try counted and the day's codes after it.
     */
    claimTry: (
      input: { userId: number; purpose: CodePurpose; since: Date },
      check: (code: StoredOtp | undefined, day: TriedOtp[]) => Message | null,
    ) =>
      db.transaction(async (tx): Promise<{ problem: Message } | { code: StoredOtp; day: TriedOtp[] }> => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for('update');
        const mine = and(eq(otpCodes.userId, input.userId), eq(otpCodes.purpose, input.purpose));
        const [code] = await tx.select().from(otpCodes).where(mine).orderBy(desc(otpCodes.id)).limit(1);
        const day = await tx
          .select({
            id: otpCodes.id,
            attempts: otpCodes.attempts,
            consumedAt: otpCodes.consumedAt,
            createdAt: otpCodes.createdAt,
          })
          .from(otpCodes)
          .where(and(mine, gt(otpCodes.createdAt, input.since)));
        const problem = check(code, day);
        if (problem || !code) return { problem: problem ?? message('errors.auth.noActiveCode') };
        await tx
          .update(otpCodes)
          .set({ attempts: sql`${otpCodes.attempts} + 1` })
          .where(eq(otpCodes.id, code.id));
        const counted = (c: TriedOtp) => (c.id === code.id ? { ...c, attempts: c.attempts + 1 } : c);
        return { code: { ...code, attempts: code.attempts + 1 }, day: day.map(counted) };
      }),

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

    /** A new sign-up token for the account, beside its others (a sign-in with the right password gets one). */
    async addSignUpToken(userId: number, token: { tokenHash: string; expiresAt: Date }, now: Date): Promise<void> {
      await db.insert(actionTokens).values({ userId, purpose: 'signup', ...token, createdAt: now });
    },

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
  };
}
