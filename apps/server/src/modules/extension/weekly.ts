import type { OfficerWeek } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { message } from '../../i18n/i18n.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import { weeksBefore, weekStartOf } from '../../lib/iso-weeks.ts';

/** The Monday report goes out from 06:00 in East Africa (UTC+3), that is 03:00 UTC, on Mondays only. */
export const WEEKLY_REPORT_FROM_HOUR_UTC = 3;

interface Officer {
  id: number;
  email: string | null;
}

/**
 * The Monday summary of last week to each approved officer of a district, through the outbox
 * (docs/decisions/0050): in the app always, by email when the officer has an address, by SMS when they
 * have none. The key names the district and the week, so the hourly sweep sends it once.
 */
export function createWeeklyReport(
  deps: Pick<ModuleDeps, 'clock' | 'delivery' | 'config'>,
  uses: {
    weekOf: (code: string, day: string) => Promise<OfficerWeek>;
    districts: () => Promise<string[]>;
    officersOf: (code: string) => Promise<Officer[]>;
  },
) {
  return async function sendWeekly(): Promise<number> {
    const now = deps.clock.now();
    const monday = weekStartOf(now);
    if (now.getUTCDay() !== 1 || now.getUTCHours() < WEEKLY_REPORT_FROM_HOUR_UTC) return 0;
    const lastWeek = weeksBefore(monday, 1);
    let told = 0;
    for (const code of await uses.districts()) {
      const officers = await uses.officersOf(code);
      if (officers.length === 0) continue;
      const w = await uses.weekOf(code, lastWeek);
      const params = {
        week: w.week,
        district: w.name,
        confirmed: w.crops.reduce((a, c) => a + c.confirmed, 0),
        worse: w.follow_ups.worse,
        waiting: w.review.waiting,
      };
      // Each count with its noun in the reader's plural form ("1 farmer said worse", not "1 farmers").
      const text = message('officer.weekly.message', {
        ...params,
        confirmed: message('officer.weekly.cases', { count: params.confirmed }),
        worse: message('officer.weekly.worse', { count: params.worse }),
        waiting: message('officer.weekly.waiting', { count: params.waiting }),
      });
      await deps.delivery.transaction(async (_tx, tell) => {
        await tell(
          officers.map((o) => ({
            to: o.id,
            key: `officer-weekly:${code}:${lastWeek}`,
            kind: 'service' as const,
            app: { type: 'officer_weekly' as const, text, data: { district: code, week_start: lastWeek } },
            email: o.email
              ? {
                  subject: message('officer.weekly.subject', params),
                  text,
                  link: `${deps.config.publicUrl}/account/extension`,
                }
              : undefined,
            sms: o.email ? undefined : smsMessage('officer.weekly.sms', params),
          })),
        );
      });
      told += officers.length;
    }
    return told;
  };
}
