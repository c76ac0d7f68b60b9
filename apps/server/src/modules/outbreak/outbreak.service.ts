import { type OutbreakCrop, type OutbreakSettingsReply, TREND_WEEKS } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { notFound } from '../../lib/errors.ts';
import { createAlertDelivery, OUTBREAK_ALERT_QUEUE } from './alert-delivery.ts';

export { OUTBREAK_ALERT_QUEUE };
/** Farmer-weeks and alerts as other modules' queries read them (an officer's week). */
export { alertFacts, farmerWeekFacts } from './facts.repo.ts';
import type { Db } from '../../db/client.ts';
import {
  type CaseRow,
  createOutbreakRepo,
  type FarmerWeek,
  type OutbreakSources,
  recountAll,
} from './outbreak.repo.ts';
import { createOutbreakPublishing } from './published.ts';
import { createDistrictRust } from './district-now.ts';
import { ALERT_WINDOW_WEEKS, alertedBy, inOutbreak, weekStartOf, weeksBefore } from './rule.ts';

/**
 * Rebuilds every case and count from the analyses and verdicts, in one transaction: `npm run outbreak:recount`
 * and the demo command only (repair; confirmations move the counts one by one, docs/decisions/0031).
 */
export const recountOutbreak = (db: Db, sources: OutbreakSources, now = new Date()) => recountAll(db, now, sources);

/** How far back a farmer's photos count when the district is first set. */
export const PAST_PHOTOS_DAYS = 14;

/**
 * Outbreak watch: cases counted per district, crop and week as analyses and verdicts change
 * (docs/decisions/0031), alerts (0032), and the map, trend, table, CSV and open feed under the privacy
 * rule (0033).
 */
export function createOutbreakService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'jobs' | 'delivery' | 'lists'>,
  /** Analyses, verdicts and plant-clinic farmers as counting reads them: their owners', handed in. */
  sources: OutbreakSources,
) {
  const repo = createOutbreakRepo(deps.db, sources);
  const { clock } = deps;

  /**
   * Brings one analysis's case up to date and moves the counts by the difference, in one transaction:
   * no recount. Returns the alerts it raised (their delivery is queued after the commit).
   */
  async function record(analysisId: number): Promise<number[]> {
    let changed = false;
    const raised = await deps.db.transaction(async (tx) => {
      // Every change to a district and crop's counts goes through their lock, taken with this first read
      // when the analysis is or may become a case: the reads below then see every earlier confirmation,
      // so the alert can be neither missed nor doubled. Round trips are what a confirmation costs.
      const first = await repo.caseSourceLocking(tx, analysisId);
      if (!first) return [];
      if (!first.known && first.state === 'none') return [];
      const district = first.known?.district ?? first.userDistrict;
      if (!district) return [];
      const src = await repo.caseUnderLock(tx, analysisId);
      if (!src) return [];
      const before = src.known;
      if (!before && src.state === 'none') return [];
      const unreviewed = src.state === 'reported' && src.unreviewed;
      const c: CaseRow = before
        ? { ...before, state: src.state, unreviewed }
        : { district, crop: src.crop, weekStart: src.weekStart, demo: src.demo, state: src.state, unreviewed };
      if (before && before.state === c.state && before.unreviewed === c.unreviewed) return [];

      // The farmer-week before and after: the farmer's other cases that week, with this one's old and new state.
      const { others } = src;
      const weekOf = (own: CaseRow | null): FarmerWeek => {
        const confirmed = others.confirmed || own?.state === 'confirmed';
        const reported = others.reported || own?.state === 'reported';
        const state = confirmed ? 'confirmed' : reported ? 'reported' : 'none';
        return { state, unreviewed: state === 'reported' && (others.unreviewed || Boolean(own?.unreviewed)) };
      };
      const weekBefore = weekOf(before);
      const weekAfter = weekOf(c);
      const is = (w: FarmerWeek, s: string) => (w.state === s ? 1 : 0);
      const delta = {
        confirmed: is(weekAfter, 'confirmed') - is(weekBefore, 'confirmed'),
        reported: is(weekAfter, 'reported') - is(weekBefore, 'reported'),
        unreviewed: Number(weekAfter.unreviewed) - Number(weekBefore.unreviewed),
      };
      const now = clock.now();
      await repo.save(tx, analysisId, src.userId, c, weekAfter, delta, now);
      changed = true;
      if (!delta.confirmed || c.demo) return [];
      return evaluate(tx, c.district, c.crop as OutbreakCrop, now);
    });
    if (changed) await deps.lists.changed('outbreak-map');
    for (const alertId of raised) await deps.jobs.send(OUTBREAK_ALERT_QUEUE, { alertId });
    return raised;
  }

  /** The alert rule (rule.ts) for the districts a change in `source` can affect: raise or end. */
  async function evaluate(
    tx: Parameters<Parameters<typeof deps.db.transaction>[0]>[0],
    source: string,
    crop: OutbreakCrop,
    now: Date,
  ): Promise<number[]> {
    const targets = alertedBy(source);
    const relevant = [...new Set(targets.flatMap(alertedBy))];
    const from = weeksBefore(weekStartOf(now), ALERT_WINDOW_WEEKS - 1);
    const { counts, open } = await repo.ruleInputs(tx, crop, from, relevant, targets);
    const raised: number[] = [];
    for (const district of targets) {
      const cause = inOutbreak(district, counts);
      const openId = open.get(district);
      if (cause && openId === undefined) {
        const id = await repo.raiseAlert(tx, district, crop, cause, now);
        if (id !== null) raised.push(id);
      } else if (!cause && openId !== undefined) {
        await repo.endAlert(tx, openId, now);
      }
    }
    return raised;
  }

  /**
   * Ends each open alert whose rule no longer holds now that the window has moved on (cases older than
   * it fall out without any verdict): run by the outbreak upkeep job. Returns how many it ended. Under
   * the same lock as `record`, so a confirmation arriving meanwhile is counted before the decision.
   */
  async function endLapsedAlerts(): Promise<number> {
    let ended = 0;
    for (const { district, crop } of await repo.openAlerts()) {
      const now = clock.now();
      await deps.db.transaction(async (tx) => {
        await repo.lockCounts(tx, district, crop);
        const from = weeksBefore(weekStartOf(now), ALERT_WINDOW_WEEKS - 1);
        const { counts, open } = await repo.ruleInputs(tx, crop, from, alertedBy(district), [district]);
        const openId = open.get(district);
        if (openId === undefined || inOutbreak(district, counts)) return;
        await repo.endAlert(tx, openId, now);
        ended += 1;
      });
    }
    return ended;
  }

  /**
   * Brings up to date the cases a crash left behind (between a verdict's or a photo's commit and its
   * count): run by the outbreak upkeep job, at start and every hour. Cases of the trend's weeks, and new
   * photos of the last PAST_PHOTOS_DAYS; older drift is `npm run outbreak:recount`'s. Returns how many.
   */
  async function reconcile(): Promise<number> {
    const now = clock.now();
    const since = weeksBefore(weekStartOf(now), TREND_WEEKS - 1);
    const lagging = await repo.unsettled(since, new Date(now.getTime() - PAST_PHOTOS_DAYS * 86_400_000));
    for (const { id } of lagging) await record(id);
    return lagging.length;
  }

  const { deliver, resumeDeliveries } = createAlertDelivery(deps, repo);

  const settingsReply = (s: {
    district: string | null;
    smsAlerts: boolean;
    voiceWarnings: boolean;
    role: 'farmer' | 'expert';
  }): OutbreakSettingsReply => ({
    district: s.district,
    sms_alerts: s.smsAlerts,
    voice_warnings: s.voiceWarnings,
    needs_district: s.role === 'farmer' && s.district === null,
  });

  return {
    record,
    /** Rust in one district now, as the USSD menu says it (district-now.ts). */
    districtNow: createDistrictRust(repo),
    deliver,
    resumeDeliveries,
    /** The map (and `mapUncached` for benchmarks), trend, table, CSV and open feed (published.ts). */
    ...createOutbreakPublishing(deps, repo),
    endLapsedAlerts,
    reconcile,
    /**
     * The counts every outbreak figure is made of (farmer-weeks per district, crop and week, unrounded):
     * an extension officer's week reads its own district's from here, so its numbers are the table's.
     * Real cases only: try-out (demo) farmers are no officer's to visit.
     */
    weeklyCounts: (q: { from: string; to?: string; district?: string }) => repo.weekly({ ...q, realOnly: true }),
    openAlertDistricts: (crop: string) => repo.openAlertDistricts(crop),
    async settings(userId: number) {
      const s = await repo.settings(userId);
      if (!s) throw notFound();
      return settingsReply(s);
    },
    async saveSettings(userId: number, body: { district?: string; sms_alerts?: boolean; voice_warnings?: boolean }) {
      const before = body.district ? await repo.settings(userId) : undefined;
      const s = await repo.saveSettings(
        userId,
        { district: body.district, smsAlerts: body.sms_alerts, voiceWarnings: body.voice_warnings },
        clock.now(),
      );
      if (!s) throw notFound();
      // A district set for the first time: the photos of the last 14 days, made without one, count there
      // now (docs/decisions/0031). `record` compares with the stored case under the counts' lock, so a photo is
      // never counted twice, also when two requests race.
      if (before && before.district === null && s.district !== null) {
        const since = new Date(clock.now().getTime() - PAST_PHOTOS_DAYS * 86_400_000);
        for (const id of await repo.analysesSince(userId, since)) await record(id);
      }
      return settingsReply(s);
    },
  };
}
export type OutbreakService = ReturnType<typeof createOutbreakService>;
