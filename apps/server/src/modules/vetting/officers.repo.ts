import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { VettingStatus } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { officerProfiles, users } from '../../db/schema/index.ts';

const decider = alias(users, 'decider');

/** Extension officers' applications and their vetting, as experts' (docs/decisions/0027). */
export function createOfficerVettingRepo(db: Db) {
  const columns = {
    id: users.id,
    username: users.username,
    email: users.email,
    phone: users.phone,
    language: users.language,
    profile: officerProfiles,
    decidedBy: decider.username,
    phoneVerified: sql<boolean>`${users.phoneVerifiedAt} is not null`,
    emailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
  };
  const signedUp = isNotNull(users.activatedAt);
  const joined = () =>
    db
      .select(columns)
      .from(officerProfiles)
      .innerJoin(users, eq(users.id, officerProfiles.userId))
      .leftJoin(decider, eq(decider.id, officerProfiles.vettedBy));

  return {
    /** The officer's vetting status; null when the user has no officer profile. */
    async statusOf(userId: number): Promise<VettingStatus | null> {
      const [row] = await db
        .select({ status: officerProfiles.vettingStatus })
        .from(officerProfiles)
        .where(eq(officerProfiles.userId, userId));
      return row?.status ?? null;
    },

    /** Pending first (oldest first), then the decided ones (latest first); finished sign-ups only. */
    async list(window: { limit: number; offset: number }, status?: VettingStatus) {
      const where = status ? and(signedUp, eq(officerProfiles.vettingStatus, status)) : signedUp;
      const rows = await joined()
        .where(where)
        .orderBy(
          sql`case when ${officerProfiles.vettingStatus} = 'pending' then 0 else 1 end`,
          sql`case when ${officerProfiles.vettingStatus} = 'pending' then ${officerProfiles.appliedAt} end asc`,
          desc(officerProfiles.vettedAt),
          asc(officerProfiles.userId),
        )
        .limit(window.limit)
        .offset(window.offset);
      const counted = (w: ReturnType<typeof and>) =>
        db.select({ n: count() }).from(officerProfiles).innerJoin(users, eq(users.id, officerProfiles.userId)).where(w);
      const [[{ n: total }], [{ n: pending }]] = await Promise.all([
        counted(where),
        counted(and(signedUp, eq(officerProfiles.vettingStatus, 'pending'))),
      ]);
      return { rows, total, pending };
    },

    async find(userId: number) {
      const [row] = await joined().where(eq(officerProfiles.userId, userId));
      return row;
    },

    /** Approved officers of a district whose account is active: who gets the Monday report. */
    officersOf: (district: string) =>
      db
        .select({ id: users.id, email: users.email, language: users.language })
        .from(officerProfiles)
        .innerJoin(users, eq(users.id, officerProfiles.userId))
        .where(
          and(
            signedUp,
            eq(officerProfiles.vettingStatus, 'approved'),
            sql`${district} = any(${officerProfiles.districts})`,
          ),
        )
        .orderBy(asc(users.id)),

    async approvedDistricts(): Promise<string[]> {
      const rows = await db
        .selectDistinct({ code: sql<string>`unnest(${officerProfiles.districts})` })
        .from(officerProfiles)
        .innerJoin(users, eq(users.id, officerProfiles.userId))
        .where(and(signedUp, eq(officerProfiles.vettingStatus, 'approved')));
      return rows.map((r) => r.code).sort();
    },

    /** Records a decision if the application is still in one of `from`; false when it was not. */
    async decide(input: {
      userId: number;
      from: VettingStatus[];
      to: VettingStatus;
      reason: string | null;
      adminId: number;
      now: Date;
    }): Promise<boolean> {
      const rows = await db
        .update(officerProfiles)
        .set({ vettingStatus: input.to, vettingReason: input.reason, vettedAt: input.now, vettedBy: input.adminId })
        .where(and(eq(officerProfiles.userId, input.userId), inArray(officerProfiles.vettingStatus, input.from)))
        .returning({ id: officerProfiles.userId });
      return rows.length === 1;
    },
  };
}
export type OfficerVettingRepo = ReturnType<typeof createOfficerVettingRepo>;
export type OfficerApplicationRow = NonNullable<Awaited<ReturnType<OfficerVettingRepo['find']>>>;
