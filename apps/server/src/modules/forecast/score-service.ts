import {
  type ForecastScoreReply,
  RUST_WEATHER_VERSION,
  SMALL_COUNT_MIN,
  type StoredForecastScore,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { weekStartOf } from '../../lib/iso-weeks.ts';
import type { WalksService } from '../fields/walks.service.ts';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import type { BulletinScore } from './bulletin.ts';
import { forecastScore, type Outcome, scoreCases } from './score.ts';
import type { createScoreRepo, StoredScore } from './score.repo.ts';

/** Runs are kept this long (two seasons of both rains), then pruned by the hourly sweep (docs/decisions/0129). */
export const FORECAST_KEEP_DAYS = 730;
const DAY_MS = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** A stored score as the API answers it. */
export function scoreReply(row: StoredScore): StoredForecastScore {
  return {
    week_start: row.weekStart,
    scored_at: row.scoredAt.toISOString(),
    rules_version: row.rulesVersion,
    from: row.from,
    to: row.to,
    weeks: row.weeks,
    cases: row.cases,
    table: { a: row.hits, b: row.falseAlarms, c: row.misses, d: row.quiet },
    hit_rate: row.hitRate,
    false_alarm_ratio: row.falseAlarmRatio,
    peirce: row.peirce,
    brier: row.brier,
    brier_baseline: row.brierBaseline,
    brier_skill: row.brierSkill,
    reliability: row.reliability,
  };
}

/**
 * The forecast's score (score.ts) over the weeks kept whose window has closed: each week's first run against
 * the confirmed counts (the outbreak module's) and the walks' farmers (the walks module's) of the two weeks
 * after it. The weekly sweep computes it once per ISO week and stores it; readers read the latest stored
 * (docs/decisions/0137), never the runs.
 */
export function createScores(
  deps: Pick<ModuleDeps, 'clock'>,
  repo: ReturnType<typeof createScoreRepo>,
  uses: {
    outbreak: Pick<OutbreakService, 'weeklyCounts'>;
    walks?: Pick<WalksService, 'weeklyIncidence'>;
  },
) {
  /** The score as of now, computed from the runs, counts and walks kept, as the week's row to store. */
  async function compute(): Promise<StoredScore> {
    const now = deps.clock.now();
    const from = weekStartOf(new Date(now.getTime() - FORECAST_KEEP_DAYS * DAY_MS));
    // A week W is scored once its window (W + 7 .. W + 20) is over: W before this Monday less 14 days.
    const to = isoDay(new Date(`${weekStartOf(now)}T00:00:00Z`).getTime() - 14 * DAY_MS);
    const [forecasts, counts, walks] = await Promise.all([
      repo.weekForecasts(from, to),
      uses.outbreak.weeklyCounts({ from }),
      uses.walks?.weeklyIncidence(from),
    ]);
    const outcomes: Outcome[] = [
      ...counts.map((c) => ({
        district: c.district,
        crop: c.crop,
        day: c.weekStart,
        walkers: 0,
        walkedRust: 0,
        confirmed: Number(c.confirmed),
      })),
      ...(walks ?? []).map((w) => ({
        district: w.district,
        crop: w.crop,
        day: w.weekStart,
        walkers: w.farmers,
        walkedRust: w.rustFarmers,
        confirmed: 0,
      })),
    ];
    const s = forecastScore(scoreCases(forecasts, outcomes, SMALL_COUNT_MIN));
    return {
      weekStart: weekStartOf(now),
      scoredAt: now,
      rulesVersion: RUST_WEATHER_VERSION,
      from,
      to,
      weeks: s.weeks,
      cases: s.cases,
      hits: s.table.a,
      falseAlarms: s.table.b,
      misses: s.table.c,
      quiet: s.table.d,
      hitRate: s.hitRate,
      falseAlarmRatio: s.falseAlarmRatio,
      peirce: s.peirce,
      brier: s.brier,
      brierBaseline: s.brierBaseline,
      brierSkill: s.brierSkill,
      reliability: s.reliability,
    };
  }

  return {
    compute,

    /**
     * The weekly sweep's: scores this ISO week and stores it, once (a second sweep, a restart or a second
     * process stores nothing). True when this call stored it.
     */
    async storeWeek(): Promise<boolean> {
      if (await repo.storedFor(weekStartOf(deps.clock.now()))) return false;
      return repo.store(await compute());
    },

    /** The latest stored score; null before the first sweep ("not scored yet"). */
    async latest(): Promise<ForecastScoreReply> {
      const row = await repo.latestStored();
      return { score: row ? scoreReply(row) : null };
    },

    /** The latest stored score as the bulletin prints it; null: not scored yet. */
    async forBulletin(): Promise<BulletinScore | null> {
      const row = await repo.latestStored();
      if (!row) return null;
      return {
        weekStart: row.weekStart,
        weeks: row.weeks,
        cases: row.cases,
        hitRate: row.hitRate,
        falseAlarmRatio: row.falseAlarmRatio,
        peirce: row.peirce,
        brierSkill: row.brierSkill,
      };
    },

    /** Deletes runs older than FORECAST_KEEP_DAYS (the hourly sweep). */
    pruneRuns: () => repo.pruneRuns(new Date(deps.clock.now().getTime() - FORECAST_KEEP_DAYS * DAY_MS)),
  };
}
