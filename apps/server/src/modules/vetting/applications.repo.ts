import { type AnyColumn, and, asc, count, desc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ApprovalRole, VettingStatus } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { officerProfiles, roleApplications, users } from '../../db/schema/index.ts';
import { expertFacts } from '../auth/account.service.ts';

const decider = alias(users, 'decider');

/**
 * The SQL condition "`userId` was approved in `role`", for another module's query that filters on it
 * (an alert's or a moderation notice's experts): one indexed lookup (the table's key) inside that query,
 * so a list of thousands needs no second query and no list of ids.
 */
export const approvedSql = (role: ApprovalRole, userId: AnyColumn | SQL): SQL =>
  sql`exists (select 1 from ${roleApplications} where ${roleApplications.userId} = ${userId} and ${roleApplications.role} = ${role} and ${roleApplications.status} = 'approved')`;

/**
 * The SQL condition "`userId` is an approved expert or extension officer of `district`" (an expert by the
 * account's district, an officer also by the districts of their profile), for another module's query that
 * tells a district's staff (a rust advisory): one condition inside that query, no list of ids.
 */
export const districtStaffSql = (userId: AnyColumn | SQL, district: string): SQL =>
  sql`exists (select 1 from ${users} su where su.id = ${userId} and su.activated_at is not null and (
        (su.role = 'expert' and su.district = ${district} and ${approvedSql('expert', sql`su.id`)})
        or (su.role = 'officer' and ${approvedSql('officer', sql`su.id`)} and (su.district = ${district}
          or exists (select 1 from ${officerProfiles} where ${officerProfiles.userId} = su.id
            and ${district} = any(${officerProfiles.districts}))))))`;

/** What an officer's application carries beside the role: their office and districts. */
export type OfficerFacts = Pick<typeof officerProfiles.$inferInsert, 'office' | 'districts'>;

export interface Decision {
  userId: number;
  role: ApprovalRole;
  from: VettingStatus[];
  to: VettingStatus;
  reason: string | null;
  adminId: number;
  now: Date;
}

/**
 * Every application for a role that needs approval (docs/decisions/0093), with the applicant and the
 * role's own facts: an expert's details, an officer's office and districts (null for the other roles).
 */
export function createApplicationsRepo(db: Db) {
  const columns = {
    id: users.id,
    username: users.username,
    email: users.email,
    phone: users.phone,
    language: users.language,
    application: roleApplications,
    expert: {
      userId: expertFacts.userId,
      areasOfExpertise: expertFacts.areasOfExpertise,
      certifications: expertFacts.certifications,
      bio: expertFacts.bio,
      experienceYears: expertFacts.experienceYears,
      institution: expertFacts.institution,
      languagesSpoken: expertFacts.languagesSpoken,
      socialLinks: expertFacts.socialLinks,
    },
    officer: officerProfiles,
    decidedBy: decider.username,
    phoneVerified: sql<boolean>`${users.phoneVerifiedAt} is not null`,
    emailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
  };
  /** Applications of accounts that finished sign-up (email or phone verified); the others are not listed. */
  const signedUp = isNotNull(users.activatedAt);
  const of = (role: ApprovalRole) => eq(roleApplications.role, role);
  const joined = () =>
    db
      .select(columns)
      .from(roleApplications)
      .innerJoin(users, eq(users.id, roleApplications.userId))
      .leftJoin(expertFacts, and(of('expert'), eq(expertFacts.userId, roleApplications.userId)))
      .leftJoin(officerProfiles, and(of('officer'), eq(officerProfiles.userId, roleApplications.userId)))
      .leftJoin(decider, eq(decider.id, roleApplications.decidedBy));
  const approvedOfficers = and(signedUp, of('officer'), eq(roleApplications.status, 'approved'));

  return {
    /** The user's status in `role`; null when they never applied for it. */
    async statusOf(userId: number, role: ApprovalRole): Promise<VettingStatus | null> {
      const [row] = await db
        .select({ status: roleApplications.status })
        .from(roleApplications)
        .where(and(eq(roleApplications.userId, userId), of(role)));
      return row?.status ?? null;
    },

    /** The user's application in `role` as they see it; undefined when they never applied for it. */
    async decisionOf(
      userId: number,
      role: ApprovalRole,
    ): Promise<Pick<typeof roleApplications.$inferSelect, 'status' | 'reason' | 'decidedAt'> | undefined> {
      const [row] = await db
        .select({
          status: roleApplications.status,
          reason: roleApplications.reason,
          decidedAt: roleApplications.decidedAt,
        })
        .from(roleApplications)
        .where(and(eq(roleApplications.userId, userId), of(role)));
      return row;
    },

    /** A new applicant's pending application (in the sign-up's transaction when `db` is one). */
    async open(userId: number, role: ApprovalRole, now: Date, officer?: OfficerFacts) {
      await db.insert(roleApplications).values({ userId, role, appliedAt: now });
      if (role === 'officer' && officer) await db.insert(officerProfiles).values({ userId, ...officer });
    },

    /**
     * A page of one role's applications of accounts that finished sign-up: pending first (oldest first,
     * as they came), then the decided ones, latest first; with the count of pending ones.
     */
    async list(role: ApprovalRole, window: { limit: number; offset: number }, status?: VettingStatus) {
      const where = and(signedUp, of(role), status && eq(roleApplications.status, status));
      const rows = await joined()
        .where(where)
        .orderBy(
          sql`case when ${roleApplications.status} = 'pending' then 0 else 1 end`,
          sql`case when ${roleApplications.status} = 'pending' then ${roleApplications.appliedAt} end asc`,
          desc(roleApplications.decidedAt),
          asc(roleApplications.userId),
        )
        .limit(window.limit)
        .offset(window.offset);
      const counted = (w: ReturnType<typeof and>) =>
        db
          .select({ n: count() })
          .from(roleApplications)
          .innerJoin(users, eq(users.id, roleApplications.userId))
          .where(w);
      const [[{ n: total }], [{ n: pending }]] = await Promise.all([
        counted(where),
        counted(and(signedUp, of(role), eq(roleApplications.status, 'pending'))),
      ]);
      return { rows, total, pending };
    },

    async find(userId: number, role: ApprovalRole) {
      const [row] = await joined().where(and(eq(roleApplications.userId, userId), of(role)));
      return row;
    },

    /**
     * Records a decision if the application is still in one of `from` (so two administrators deciding
     * at once cannot both win); false when it was not.
     */
    async decide(input: Decision): Promise<boolean> {
      const rows = await db
        .update(roleApplications)
        .set({ status: input.to, reason: input.reason, decidedAt: input.now, decidedBy: input.adminId })
        .where(
          and(eq(roleApplications.userId, input.userId), of(input.role), inArray(roleApplications.status, input.from)),
        )
        .returning({ id: roleApplications.userId });
      return rows.length === 1;
    },

    /** Approved officers of a district whose account is active: who gets the Monday report. */
    officersOf: (district: string) =>
      db
        .select({ id: users.id, email: users.email, language: users.language })
        .from(roleApplications)
        .innerJoin(users, eq(users.id, roleApplications.userId))
        .innerJoin(officerProfiles, eq(officerProfiles.userId, roleApplications.userId))
        .where(and(approvedOfficers, sql`${district} = any(${officerProfiles.districts})`))
        .orderBy(asc(users.id)),

    /**
     * Grants or takes back an approved officer's national scope, with who and when (docs/decisions/0122);
     * false when the officer is not approved (then nothing changes).
     */
    async setNational(userId: number, national: boolean, adminId: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(officerProfiles)
        .set({ national, nationalChangedAt: now, nationalChangedBy: adminId })
        .where(
          and(
            eq(officerProfiles.userId, userId),
            sql`exists (select 1 from ${roleApplications} ra where ra.user_id = ${userId} and ra.role = 'officer'
                  and ra.status = 'approved')`,
          ),
        )
        .returning({ id: officerProfiles.userId });
      return rows.length === 1;
    },

    /** Approved national officers whose account is active: who reads the national bulletin beside administrators. */
    nationalOfficers: (userId?: number) =>
      db
        .select({ id: users.id, email: users.email, language: users.language })
        .from(roleApplications)
        .innerJoin(users, eq(users.id, roleApplications.userId))
        .innerJoin(officerProfiles, eq(officerProfiles.userId, roleApplications.userId))
        .where(and(approvedOfficers, eq(officerProfiles.national, true), userId ? eq(users.id, userId) : undefined))
        .orderBy(asc(users.id)),

    async approvedDistricts(): Promise<string[]> {
      const rows = await db
        .selectDistinct({ code: sql<string>`unnest(${officerProfiles.districts})` })
        .from(roleApplications)
        .innerJoin(users, eq(users.id, roleApplications.userId))
        .innerJoin(officerProfiles, eq(officerProfiles.userId, roleApplications.userId))
        .where(approvedOfficers);
      return rows.map((r) => r.code).sort();
    },
  };
}
export type ApplicationsRepo = ReturnType<typeof createApplicationsRepo>;
export type ApplicationRow = NonNullable<Awaited<ReturnType<ApplicationsRepo['find']>>>;
