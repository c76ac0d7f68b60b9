import { desc, eq, sql } from 'drizzle-orm';
import type { RiskLevel } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { forecastScores } from '../../db/schema/index.ts';
import type { WeekForecast } from './score.ts';

/** The forecast's own history for its score and its retention (docs/decisions/0129). */
export function createScoreRepo(db: Db) {
  return {
    /**
     * Each ISO week's first run with weather (from `from` to before `to`), per district and crop: its worst
     * level over its days and whether rust was near in any of them (here, walked here, next door, unnamed).
     */
    async weekForecasts(from: string, to: string): Promise<WeekForecast[]> {
      const res = await db.execute(sql`
        with firsts as (
          select distinct on (date_trunc('week', ran_at at time zone 'UTC')) id,
            (date_trunc('week', ran_at at time zone 'UTC'))::date::text as week
          from forecast_runs
          where ran_at >= ${from}::date and ran_at < ${to}::date and weather_fetched_at is not null
          order by date_trunc('week', ran_at at time zone 'UTC'), ran_at, id
        )
        select f.week, r.district, r.crop,
          max(case r.level when 'high' then 3 when 'moderate' then 2 when 'low' then 1 else 0 end)::int as rank,
          bool_or(coalesce((r.basis->>'confirmed_here')::boolean, false)
            or coalesce((r.basis->>'walked_rust_here')::boolean, false)
            or jsonb_array_length(coalesce(r.basis->'neighbours', '[]'::jsonb)) > 0
            or coalesce((r.basis->>'unnamed_near')::boolean, false)) as near
        from firsts f join forecast_risks r on r.run_id = f.id
        group by f.week, r.district, r.crop`);
      const levels: RiskLevel[] = ['unknown', 'low', 'moderate', 'high'];
      return (
        res as unknown as { rows: { week: string; district: string; crop: string; rank: number; near: boolean }[] }
      ).rows.map((r) => ({
        week: r.week,
        district: r.district,
        crop: r.crop,
        level: levels[r.rank]!,
        rustNear: r.near,
      }));
    },

    /** The score stored for the ISO week starting `weekStart`, if the sweep stored one (docs/decisions/0137). */
    async storedFor(weekStart: string): Promise<StoredScore | undefined> {
      const [row] = await db.select().from(forecastScores).where(eq(forecastScores.weekStart, weekStart));
      return row;
    },

    /** The latest score stored, or undefined before the first sweep. */
    async latestStored(): Promise<StoredScore | undefined> {
      const [row] = await db.select().from(forecastScores).orderBy(desc(forecastScores.weekStart)).limit(1);
      return row;
    },

    /** Stores a week's score once: a second sweep of the week (or a second process) leaves the first. */
    async store(row: StoredScore): Promise<boolean> {
      const res = await db
        .insert(forecastScores)
        .values(row)
        .onConflictDoNothing()
        .returning({ w: forecastScores.weekStart });
      return res.length > 0;
    },

    /** Deletes the runs made before `before` (their risks go with them): the retention. Returns how many. */
    async pruneRuns(before: Date): Promise<number> {
      const res = await db.execute(sql`delete from forecast_runs where ran_at < ${before.toISOString()} returning id`);
      return (res as unknown as { rows: unknown[] }).rows.length;
    },
  };
}
export type StoredScore = typeof forecastScores.$inferSelect;
