import { districtByCode, type ForecastCrop } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { type MessageKey, message } from '../../i18n/i18n.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import type { BulkTell } from '../../lib/deliverer.ts';
import { weekStartOf } from '../../lib/iso-weeks.ts';
import type { ForecastRepo, RiskRow } from './forecast.repo.ts';

/** Districts' advisories written at once (docs/decisions/0140). */
const WRITES_AT_ONCE = 2;

/** A reminder brought forward is due at 07:00 East Africa Time. */
const WALK_REMINDER_HOUR_UTC = '04';

/** The follow-up reminders (the followup module's), brought forward by a high week. */
export interface Reminders {
  bringForward(district: string, crop: string, by: Date): Promise<number>;
}

/**
 * The one day a high week asks a field to be walked by (docs/decisions/0131): the first high day's morning,
 * or a day after the advisory at the soonest, so a high day that is today never reads as a week away. The
 * SMS, the call, the in-app notice, the field's page and the brought-forward reminder all say this day.
 */
export function walkBy(highDay: string, toldAt: Date): { day: string; at: Date } {
  const morning = new Date(`${highDay}T${WALK_REMINDER_HOUR_UTC}:00:00Z`);
  const soonest = new Date(toldAt.getTime() + 86_400_000);
  const at = morning > soonest ? morning : soonest;
  // Its date in East Africa Time (UTC+3, no daylight saving).
  return { day: new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 10), at };
}

/** A local date as the catalogues say it, day and month ("30 November"): a weekday alone reads as next week's. */
const dayMonth = (day: string) =>
  message('dates.dayMonth', {
    day: Number(day.slice(8, 10)),
    month: message(`dates.months.${Number(day.slice(5, 7))}` as MessageKey),
  });

/**
 * What an advisory says to a farmer with a field of the crop in the district, or to its experts and
 * officers. The farmer's key holds the crop and the week only: a farmer with fields in two districts that
 * turn high is told once a week per crop (the outbox keeps one message per key and person).
 */
function advisory(district: string, crop: ForecastCrop, highDay: string, by: string, week: string, runId: number) {
  const params = {
    crop: message(`outbreak.crops.${crop}`),
    district: districtByCode(district)?.name ?? district,
    day: dayMonth(by),
  };
  const data = { district, crop, high_day: highDay, run_id: runId };
  const farmer: BulkTell = {
    key: `rust-advisory:${crop}:${week}`,
    kind: 'alert',
    app: { type: 'rust_advisory', text: message('forecast.advisory.message', params), data },
    sms: smsMessage('forecast.advisory.sms', params),
    // Said in a call to a farmer who chose one (the outbox's voice channel, docs/decisions/0123); staff get none.
    voice: message('forecast.advisory.voice', params),
  };
  // Staff hear the day the high risk starts (a weekday of this week, to keep their SMS one part).
  const from = {
    ...params,
    day: message(`dates.weekdays.${new Date(`${highDay}T12:00:00Z`).getUTCDay()}` as MessageKey),
  };
  const staff: BulkTell = {
    key: `rust-advisory:${crop}:${week}:${district}`,
    kind: 'alert',
    app: { type: 'rust_advisory', text: message('forecast.advisory.staff', from), data },
    sms: smsMessage('forecast.advisory.staffSms', from),
  };
  return { farmer, staff };
}

/**
 * Advisories before confirmation (docs/decisions/0100): each district and crop whose week has a high day
 * is told once per ISO week, farmers with a field of that crop there and the district's experts and
 * officers, through the outbox (STOP and SMS alert settings apply: kind `alert`). The claim and the messages
 * commit together, so a run repeated (every 6 hours) writes nothing twice; a farmer whose field of the crop
 * there is made later in the week is told by the next run.
 */
/** The day a field of a high week is to be walked by: the advisory's when there was one, else as it would say now. */
export function walkByOf(
  rows: RiskRow[],
  advised: { highDay: string; toldAt: Date } | undefined,
  now: Date,
): string | null {
  const firstHigh = rows.find((r) => r.level === 'high')?.day;
  if (!firstHigh) return null;
  return advised ? walkBy(advised.highDay, advised.toldAt).day : walkBy(firstHigh, now).day;
}

export function createAdvisories(
  deps: Pick<ModuleDeps, 'clock' | 'delivery'>,
  repo: ForecastRepo,
  reminders: Reminders,
) {
  return async function advise(runId: number, risks: RiskRow[]): Promise<{ district: string; crop: string }[]> {
    const now = deps.clock.now();
    const week = weekStartOf(now);
    const firstHigh = new Map<string, RiskRow>();
    for (const r of risks) {
      const k = `${r.district}|${r.crop}`;
      if (r.level === 'high' && !firstHigh.has(k)) firstHigh.set(k, r);
    }
    const pairs = [...firstHigh.values()];
    const toldNow = new Set<RiskRow>();
    /** One district and crop's advisory: its claim for the week and its messages, committed together. */
    const write = (r: RiskRow) =>
      deps.delivery.transaction(async (tx, _tell, tellEach) => {
        const crop = r.crop as ForecastCrop;
        const toldBefore = await repo.claimAdvisory(tx, {
          district: r.district,
          crop,
          weekStart: week,
          runId,
          highDay: r.day,
          toldAt: now,
        });
        // A repeated run's late farmers hear the day the advisory first named.
        const by = walkBy(r.day, toldBefore ?? now).day;
        const messages = advisory(r.district, crop, r.day, by, week, runId);
        // Told already this week: only farmers whose field came since hear it (the outbox's key per person
        // keeps anyone from hearing it twice).
        if (toldBefore) return tellEach(repo.recipients(r.district, crop, toldBefore), messages);
        await tellEach(repo.recipients(r.district, crop), messages);
        toldNow.add(r);
      });
    // Each write is one statement on one of the database's cores: WRITES_AT_ONCE of them keep a small
    // server's cores busy (docs/decisions/0140). A farmer with fields in two districts is still told once: the
    // second write waits on the first's key (the outbox's unique key) and skips it. After a failure no new
    // write starts, the ones under way finish, and the failure is thrown.
    let next = 0;
    const failures: unknown[] = [];
    const writer = async () => {
      while (next < pairs.length && failures.length === 0) {
        const r = pairs[next++]!;
        await write(r).catch((error: unknown) => failures.push(error));
      }
    };
    await Promise.all(Array.from({ length: Math.min(WRITES_AT_ONCE, pairs.length) }, writer));
    if (failures.length > 0) throw failures[0];
    const told = pairs.filter((r) => toldNow.has(r)).map((r) => ({ district: r.district, crop: r.crop }));
    // The fields' next walk comes forward to the day the advisory named.
    for (const { district, crop } of told) {
      const r = firstHigh.get(`${district}|${crop}`) as RiskRow;
      await reminders.bringForward(district, crop, walkBy(r.day, now).at);
    }
    return told;
  };
}
