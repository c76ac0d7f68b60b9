import { type ForecastScoreReply, SMALL_COUNT_MIN } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { weekStartOf } from '../../lib/iso-weeks.ts';
import type { WalksService } from '../fields/walks.service.ts';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import type { BulletinScore } from './bulletin.ts';
import { forecastScore, type Outcome, scoreCases } from './score.ts';
import type { createScoreRepo } from './score.repo.ts';

/** Runs are kept this long (two seasons of both rains), then pruned by the hourly sweep (docs/decisions/0129). */
export const FORECAST_KEEP_DAYS = 730;
const DAY_MS = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * The forecast's score (score.ts) over the weeks kept whose window has closed: each week's first run against
 * the confirmed counts (the outbreak module's) and the walks' farmers (the walks module's) of the two weeks
 * after it.
 */
export function createScores(
  deps: Pick<ModuleDeps, 'clock'>,
  repo: ReturnType<typeof createScoreRepo>,
  uses: {
    outbreak: Pick<OutbreakService, 'weeklyCounts'>;
    walks?: Pick<WalksService, 'weeklyIncidence'>;
  },
) {
  return {
    async score(): Promise<ForecastScoreReply> {
      const now = deps.clock.now().getTime();
      const from = weekStartOf(new Date(now - FORECAST_KEEP_DAYS * DAY_MS));
      // A week W is scored once its window (W + 7 .. W + 20) is over: W before this Monday less 14 days.
      const to = isoDay(new Date(`${weekStartOf(new Date(now))}T00:00:00Z`).getTime() - 14 * DAY_MS);
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
        from,
        to,
        weeks: s.weeks,
        cases: s.cases,
        table: s.table,
        hit_rate: s.hitRate,
        false_alarm_ratio: s.falseAlarmRatio,
        peirce: s.peirce,
        brier: s.brier,
        brier_baseline: s.brierBaseline,
        brier_skill: s.brierSkill,
        reliability: s.reliability,
      };
    },

    /** The score as the bulletin prints it. */
    async forBulletin(): Promise<BulletinScore> {
      const s = await this.score();
      return {
        weeks: s.weeks,
        cases: s.cases,
        hitRate: s.hit_rate,
        falseAlarmRatio: s.false_alarm_ratio,
        peirce: s.peirce,
        brierSkill: s.brier_skill,
      };
    },

    /** Deletes runs older than FORECAST_KEEP_DAYS (the hourly sweep). */
    pruneRuns: () => repo.pruneRuns(new Date(deps.clock.now().getTime() - FORECAST_KEEP_DAYS * DAY_MS)),
  };
}
