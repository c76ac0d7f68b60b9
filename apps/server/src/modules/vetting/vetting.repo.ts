import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { VettingStatus } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { expertProfiles, users } from '../../db/schema/index.ts';

const decider = alias(users, 'decider');

/** The expert applications and their vetting (docs/decisions/0027). */
export function createVettingRepo(db: Db) {
  const columns = {
    id: users.id,
    username: users.username,
    email: users.email,
    phone: users.phone,
    language: users.language,
    profile: expertProfiles,
    decidedBy: decider.username,
    phoneVerified: sql<boolean>`${users.phoneVerifiedAt} is not null`,
    emailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
  };
  /** Applications of accounts that finished sign-up (email or phone verified); the others are not listed. */
  const signedUp = isNotNull(users.activatedAt);

  return {
    /** The expert's vetting status; null when the user has no expert profile. */
    async statusOf(userId: number): Promise<VettingStatus | null> {
      const [row] = await db
        .select({ status: expertProfiles.vettingStatus })
        .from(expertProfiles)
        .where(eq(expertProfiles.userId, userId));
      return row?.status ?? null;
    },

    /**
     * A page of applications of accounts that finished sign-up: pending first (oldest first, as they
     * came), then the decided ones, latest first.
     */
    async list(window: { limit: number; offset: number }, status?: VettingStatus) {
      const where = status ? and(signedUp, eq(expertProfiles.vettingStatus, status)) : signedUp;
      const rows = await db
        .select(columns)
        .from(expertProfiles)
        .innerJoin(users, eq(users.id, expertProfiles.userId))
        .leftJoin(decider, eq(decider.id, expertProfiles.vettedBy))
        .where(where)
        .orderBy(
          sql`case when ${expertProfiles.vettingStatus} = 'pending' then 0 else 1 end`,
          sql`case when ${expertProfiles.vettingStatus} = 'pending' then ${expertProfiles.appliedAt} end asc`,
          desc(expertProfiles.vettedAt),
          asc(expertProfiles.userId),
        )
        .limit(window.limit)
        .offset(window.offset);
      const counted = db
        .select({ n: count() })
        .from(expertProfiles)
        .innerJoin(users, eq(users.id, expertProfiles.userId));
      const [{ n: total }] = await counted.where(where);
      const [{ n: pending }] = await db
        .select({ n: count() })
        .from(expertProfiles)
        .innerJoin(users, eq(users.id, expertProfiles.userId))
        .where(and(signedUp, eq(expertProfiles.vettingStatus, 'pending')));
      return { rows, total, pending };
    },

    async find(userId: number) {
      const [row] = await db
        .select(columns)
        .from(expertProfiles)
        .innerJoin(users, eq(users.id, expertProfiles.userId))
        .leftJoin(decider, eq(decider.id, expertProfiles.vettedBy))
        .where(eq(expertProfiles.userId, userId));
      return row;
    },

    /**
     * Records a decision if the application is still in one of `from` (so two administrators deciding
     * at once cannot both win); false when it was not.
     */
    async decide(input: {
      userId: number;
      from: VettingStatus[];
      to: VettingStatus;
      reason: string | null;
      adminId: number;
      now: Date;
    }): Promise<boolean> {
      const rows = await db
        .update(expertProfiles)
        .set({ vettingStatus: input.to, vettingReason: input.reason, vettedAt: input.now, vettedBy: input.adminId })
        .where(and(eq(expertProfiles.userId, input.userId), inArray(expertProfiles.vettingStatus, input.from)))
        .returning({ id: expertProfiles.userId });
      return rows.length === 1;
    },
  };
}
export type VettingRepo = ReturnType<typeof createVettingRepo>;
export type ApplicationRow = NonNullable<Awaited<ReturnType<VettingRepo['find']>>>;
