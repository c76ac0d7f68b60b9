import { type DashboardMonth, type DashboardReply, type DashboardStats, dashboardReply } from '@kutu/contract';
import type { Clock } from '../../adapters/clock.ts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../lib/errors.ts';
import { encodeJson, type JsonText } from '../../lib/json-text.ts';
import { createReadCache, createReadVersions } from '../../lib/read-cache.ts';
import { message } from '../../i18n/i18n.ts';
import { createDashboardRepo } from './dashboard.repo.ts';

export const DEFAULT_TIME_ZONE = 'Africa/Kampala';
export const MONTHS_SHOWN = 6;

/**
 * Month formatters by zone: building an `Intl.DateTimeFormat` costs more than the rest of a cached
 * dashboard (the profile in docs/decisions/0036). Only valid names get in, and zone names are read
 * in any case ("africa/KAMPALA"), so the map is bounded by count.
 */
const monthFormats = new Map<string, Intl.DateTimeFormat>();
function monthFormat(timeZone: string): Intl.DateTimeFormat {
  let format = monthFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: 'numeric' });
    if (monthFormats.size >= 1000) monthFormats.clear();
    monthFormats.set(timeZone, format);
  }
  return format;
}

/** A valid IANA zone name, or a 400 that says so. */
export function checkTimeZone(tz: string | undefined): string {
  if (!tz) return DEFAULT_TIME_ZONE;
  try {
    return monthFormat(tz).resolvedOptions().timeZone;
  } catch {
    throw badRequest(message('errors.dashboard.unknownTimeZone', { tz }), { tz: 'errors.dashboard.useIanaZone' });
  }
}

/** The last `count` calendar months in `timeZone`, oldest first, ending with the month of `now`. */
export function lastMonths(now: Date, timeZone: string, count = MONTHS_SHOWN): string[] {
  const parts = monthFormat(timeZone).formatToParts(now);
  const year = Number(parts.find((p) => p.type === 'year')?.value);
  const month = Number(parts.find((p) => p.type === 'month')?.value);
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i -= 1) {
    const d = new Date(Date.UTC(year, month - 1 - i, 1));
    out.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return out;
}

/**
 * The signed-in user's dashboard. Farmers see their own activity; experts see analyses across all
 * farmers (to watch disease spread) and their own training, moderation and booking work. The meaning
 * of each number per role is documented in the contract (`dashboardStats`).
 */
export function createDashboardService(db: Db, clock: Clock) {
  const repo = createDashboardRepo(db);
  const versions = createReadVersions(db);
  const farmers = createReadCache<JsonText>();
  return {
    /**
     * The dashboard encoded as the route sends it. A farmer's is cached per zone and month until a
     * write raises their read version (docs/decisions/0036): it is the screen opened most. An expert's
     * counts every farmer's analyses, which change all the time, so it is computed each time.
     */
    async reply(user: { userId: number; role: 'farmer' | 'expert' }, tz?: string): Promise<JsonText> {
      if (user.role !== 'farmer') return encodeJson(dashboardReply, await this.summary(user, tz));
      const timeZone = checkTimeZone(tz);
      const now = clock.now();
      const month = lastMonths(now, timeZone, 1)[0];
      const { stamp } = await versions.of(user.userId);
      return farmers.get(`${user.userId}\n${timeZone}\n${month}`, stamp, async () => {
        const body = encodeJson(dashboardReply, await this.summary(user, timeZone, now));
        return { value: body, bytes: body.json.length };
      });
    },

    async summary(
      user: { userId: number; role: 'farmer' | 'expert' },
      tz?: string,
      now = clock.now(),
    ): Promise<DashboardReply> {
      const timeZone = checkTimeZone(tz);
      const months = lastMonths(now, timeZone);
      const { outcomes, perMonth, training, sessions, diseasePosts, bookingsConfirmed, activity } = await repo.summary(
        user,
        { timeZone, fromMonth: months[0], now },
      );

      const stats: DashboardStats = {
        imagesAnalyzedRust: outcomes.common_rust,
        imagesAnalyzedHealthy: outcomes.healthy,
        imagesAnalyzedOtherDiseases: outcomes.other_disease,
        totalImagesAnalyzed: outcomes.total,
        imagesTrainingRust: training.common_rust,
        imagesTrainingHealthy: training.healthy,
        imagesTrainingOtherDiseases: training.other_disease,
        trainingSessions: sessions,
        communityPostsRust: diseasePosts,
        bookingsConfirmed,
      };
      const byMonth = new Map(perMonth.map((m) => [m.month, m]));
      const monthly: DashboardMonth[] = months.map((month) => {
        const found = byMonth.get(month);
        return {
          month,
          common_rust: found?.common_rust ?? 0,
          healthy: found?.healthy ?? 0,
          other_disease: found?.other_disease ?? 0,
        };
      });
      return {
        role: user.role,
        stats,
        outcomes: {
          common_rust: outcomes.common_rust,
          healthy: outcomes.healthy,
          other_disease: outcomes.other_disease,
          unclear: outcomes.total - outcomes.common_rust - outcomes.healthy - outcomes.other_disease,
        },
        monthly,
        time_zone: timeZone,
        farmer: activity
          ? {
              analyses: outcomes.total,
              questions_asked: activity.questionsAsked,
              questions_answered: activity.questionsAnswered,
              posts: activity.posts,
              posts_answered: activity.postsAnswered,
              bookings_pending: activity.bookingsPending,
              bookings_approved: bookingsConfirmed,
            }
          : null,
      };
    },
  };
}
