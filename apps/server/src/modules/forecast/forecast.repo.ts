import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { RiskBasis, RiskLevel, WeatherHour } from '@kutu/contract';
import type { Db, Tx } from '../../db/client.ts';
import { forecastAdvisories, forecastRisks, forecastRuns, users, weatherForecasts } from '../../db/schema/index.ts';
import { hasLiveFieldSql, liveFieldFacts } from '../fields/fields.service.ts';
import { districtStaffSql } from '../vetting/applications.service.ts';

/** A district point's weather as fetched: `point` indexes districtPoints (0: the centre), docs/decisions/0134. */
export type WeatherRow = { district: string; point: number; hours: WeatherHour[]; elevation: number | null };

export type RiskRow = { district: string; crop: string; day: string; level: RiskLevel; basis: RiskBasis };

/**
 * "`userId` is a plant clinic's farmer who agreed to SMS" (the clinic module's, which depends on this one
 * through review and extension, so services.ts hands it in).
 */
export type ClinicFarmerSql = (userId: SQL) => SQL;

/** The forecast's tables (docs/decisions/0100): the weather cache, runs and their risks, advisories sent. */
export function createForecastRepo(db: Db, clinicFarmerSql: ClinicFarmerSql) {
  return {
    /** Replaces the cached hours (and elevation) of each district point fetched. */
    async saveWeather(places: WeatherRow[], fetchedAt: Date) {
      // A few hundred places of a week's hours each: written 100 at a time, not in one huge statement.
      for (let i = 0; i < places.length; i += 100) {
        await db
          .insert(weatherForecasts)
          .values(places.slice(i, i + 100).map((p) => ({ ...p, fetchedAt })))
          .onConflictDoUpdate({
            target: [weatherForecasts.district, weatherForecasts.point],
            set: {
              fetchedAt: sql`excluded.fetched_at`,
              hours: sql`excluded.hours`,
              elevation: sql`excluded.elevation`,
            },
          });
      }
    },

    weather: () => db.select().from(weatherForecasts),

    /** A run and its risks, in one transaction; returns the run's id. */
    saveRun: (run: { ranAt: Date; rulesVersion: string; weatherFetchedAt: Date | null }, risks: RiskRow[]) =>
      db.transaction(async (tx) => {
        const [{ id }] = await tx.insert(forecastRuns).values(run).returning({ id: forecastRuns.id });
        for (let i = 0; i < risks.length; i += 1000) {
          await tx.insert(forecastRisks).values(risks.slice(i, i + 1000).map((r) => ({ ...r, runId: id })));
        }
        return id;
      }),

    async latestRun() {
      const [run] = await db.select().from(forecastRuns).orderBy(desc(forecastRuns.id)).limit(1);
      return run ?? null;
    },

    risks: (runId: number, crop: string, district?: string) =>
      db
        .select({
          district: forecastRisks.district,
          crop: forecastRisks.crop,
          day: forecastRisks.day,
          level: forecastRisks.level,
          basis: forecastRisks.basis,
        })
        .from(forecastRisks)
        .where(
          and(
            eq(forecastRisks.runId, runId),
            eq(forecastRisks.crop, crop),
            district ? eq(forecastRisks.district, district) : undefined,
          ),
        )
        .orderBy(forecastRisks.district, forecastRisks.day),

    /** Administrators with an active account: they read the national bulletin (docs/decisions/0122). */
    administrators: () =>
      db
        .select({ id: users.id, email: users.email, language: users.language })
        .from(users)
        .where(sql`${users.role} = 'admin' and ${users.activatedAt} is not null`)
        .orderBy(users.id),

    /** A farmer's live maize and bean fields with a district. */
    fieldsOf: (userId: number) =>
      db
        .select({
          id: liveFieldFacts.id,
          name: liveFieldFacts.name,
          crop: liveFieldFacts.crop,
          district: liveFieldFacts.district,
        })
        .from(liveFieldFacts)
        .where(
          sql`${liveFieldFacts.userId} = ${userId} and ${liveFieldFacts.district} is not null
              and ${liveFieldFacts.crop} in ('maize', 'beans')`,
        )
        .orderBy(liveFieldFacts.id),

    /**
     * Marks a district and crop's advisory of a week as written. Null when it is new; when it already was,
     * the time it was told (farmers whose field came after it are told on their own).
     */
    async claimAdvisory(tx: Tx, a: typeof forecastAdvisories.$inferInsert): Promise<Date | null> {
      const rows = await tx.insert(forecastAdvisories).values(a).onConflictDoNothing().returning();
      if (rows.length > 0) return null;
      const [told] = await tx
        .select({ toldAt: forecastAdvisories.toldAt })
        .from(forecastAdvisories)
        .where(
          and(
            eq(forecastAdvisories.district, a.district),
            eq(forecastAdvisories.crop, a.crop),
            eq(forecastAdvisories.weekStart, a.weekStart),
          ),
        );
      return told?.toldAt ?? a.toldAt;
    },

    /** A district's advisories of the ISO week starting `weekStart`, for an officer's week. */
    advisoriesOf: (district: string, weekStart: string) =>
      db
        .select({
          crop: forecastAdvisories.crop,
          highDay: forecastAdvisories.highDay,
          toldAt: forecastAdvisories.toldAt,
        })
        .from(forecastAdvisories)
        .where(and(eq(forecastAdvisories.district, district), eq(forecastAdvisories.weekStart, weekStart)))
        .orderBy(forecastAdvisories.toldAt, forecastAdvisories.crop),

    /** The advisories of the weeks from `weekStart` on, for an officer's week and the tests. */
    advisoriesSince: (weekStart: string) =>
      db.select().from(forecastAdvisories).where(sql`${forecastAdvisories.weekStart} >= ${weekStart}`),

    /**
     * Who a district's advisory tells, as SQL selecting `id` and `variant` for the outbox (`tellEach`): farmers
     * with a live field of the crop in the district (active accounts, or a plant clinic's farmers who agreed to
     * SMS, docs/decisions/0053), and the district's approved experts and extension officers. With
     * `fieldsSince`, only farmers whose field was made at or after it (told after the week's advisory).
     */
    recipients: (district: string, crop: string, fieldsSince?: Date): SQL => {
      const farmers = sql`select u.id, 'farmer' as variant from users u
          where u.role = 'farmer' and ${hasLiveFieldSql(sql`u.id`, district, crop, fieldsSince)}
            and (u.activated_at is not null or ${clinicFarmerSql(sql`u.id`)})`;
      if (fieldsSince) return sql`${farmers} order by u.id`;
      // Farmers and staff apart, not one condition with OR: the OR kept PostgreSQL from reading the district's
      // fields first, so each district's statement read every user (1.1 s at 100,000 farmers, mostly JIT compiling
      // a plan costed for all of them; bench/forecast-national.ts). No one is both: each branch is one role.
      return sql`select id, variant from (${farmers}
          union all
          select u.id, 'staff' as variant from users u
          where u.role in ('expert', 'officer') and ${districtStaffSql(sql`u.id`, district)}) r
        order by id`;
    },
  };
}
export type ForecastRepo = ReturnType<typeof createForecastRepo>;
