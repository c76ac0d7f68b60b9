import { eq, sql } from 'drizzle-orm';
import type { Language } from '@kutu/contract';
import type { Db, Tx } from '../../db/client.ts';
import { actionTokens, expertProfiles, farmerProfiles, userProfiles, users } from '../../db/schema/index.ts';
import { issueCode, type NewCode } from './codes.repo.ts';

export type UserRow = typeof users.$inferSelect;
type NewUser = Pick<
  typeof users.$inferInsert,
  'email' | 'username' | 'role' | 'phone' | 'passwordHash' | 'language' | 'district'
>;
type FarmerDetails = Omit<typeof farmerProfiles.$inferInsert, 'userId'>;
type ExpertDetails = Omit<typeof expertProfiles.$inferInsert, 'userId'>;
export type ProfileValues = Omit<typeof userProfiles.$inferInsert, 'userId' | 'updatedAt'>;

/** The name of the unique index a failed insert ran into, when that is why it failed. */
export function uniqueViolation(err: unknown): string | null {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as never) {
    if (e.code === '23505') return e.constraint ?? '';
  }
  return null;
}

/** Accounts: finding one, creating one with its first code, its language, profile and the record it shows. */
export function createAccountsRepo(db: Db) {
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
     * code, or the SMS activation code when the farmer signed up without an email; `alsoInTx` writes
     * what another module keeps of the new account in the same transaction (an application).
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
      alsoInTx?: (tx: Tx, user: UserRow) => Promise<void>;
    }) =>
      db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ ...input.user, createdAt: input.now })
          .returning();
        if (input.farmer) await tx.insert(farmerProfiles).values({ userId: user.id, ...input.farmer });
        if (input.expert) await tx.insert(expertProfiles).values({ userId: user.id, ...input.expert });
        await input.alsoInTx?.(tx, user);
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
        .select({
          user: users,
          farmer: farmerProfiles,
          expert: expertProfiles,
          profile: userProfiles,
        })
        .from(users)
        .leftJoin(farmerProfiles, eq(farmerProfiles.userId, users.id))
        .leftJoin(expertProfiles, eq(expertProfiles.userId, users.id))
        .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
        .where(eq(users.id, userId));
      return row;
    },
  };
}
export type Account = NonNullable<Awaited<ReturnType<ReturnType<typeof createAccountsRepo>['loadAccount']>>>;
