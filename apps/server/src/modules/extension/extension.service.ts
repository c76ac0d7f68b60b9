import type { z } from 'zod';
import {
  FORMER_MEMBER,
  districtByCode,
  type OfficerAction,
  type officerActionBody,
  type OfficerWeek,
  OFFICER_TREND_WEEKS,
  outbreakCrops,
  shownCount,
  toSmallCount,
  trendDirection,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import type { WalksService } from '../fields/walks.service.ts';
import type { ForecastService } from '../forecast/forecast.service.ts';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import type { ExpertQueue } from '../../lib/expert-queue.ts';
import type { ApplicationsService } from '../vetting/applications.service.ts';
import { createExtensionRepo, type ExtensionSources } from './extension.repo.ts';
import { walksOfWeek } from './walks-week.ts';
import { createWeeklyReport } from './weekly.ts';
import { isoWeekLabel, weeksBefore, weekStartOf } from '../../lib/iso-weeks.ts';

/** An officer's action as other modules' queries join it (a call-back request's closing note). */
export { actionFacts } from './facts.repo.ts';

const plusWeeks = (monday: string, n: number) => weeksBefore(monday, -n);

const iso = (d: Date | string) => new Date(d).toISOString();
/** Farmers to call listed in a week, newest first (the repository reads as many of those who said so). */
const FARMERS_LISTED = 200;
/** Why a farmer is listed to call: said worse, asked for a call back, or walked a field with more rust. */
type CallReason = 'worse' | 'callback' | 'walk';

/**
 * An extension officer's districts and their week (one screen, the CSV, the PDF and the Monday summary
 * all read `week()`, so they agree), and what officers did about a farmer. Every entry point takes the
 * officer's id and checks the district is theirs: another district is 403, an unknown one 404.
 */
export function createExtensionService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'delivery' | 'config'>,
  {
    outbreak,
    officers,
    walks,
    reviews,
    forecast,
    sources,
  }: {
    outbreak: OutbreakService;
    /** Plant-clinic visits and call-back requests: the clinic's and the basic phone's, handed in. */
    sources: ExtensionSources;
    /** The coming week's rust risk (the forecast module's; docs/decisions/0100). */
    forecast?: Pick<ForecastService, 'districtWeek' | 'advisoriesOf'>;
    officers: Pick<ApplicationsService, 'districtsOf' | 'officersOf' | 'approvedDistricts'>;
    walks: Pick<WalksService, 'walksIn' | 'worseIn'>;
    /** What waits for an expert in the district (the review module's count, as its queue reads it). */
    reviews: Pick<ExpertQueue, 'waitingIn'>;
  },
) {
  const repo = createExtensionRepo(deps.db, sources);

  async function ownDistrict(officerId: number, code: string) {
    const district = districtByCode(code);
    if (!district) throw notFound('errors.outbreak.unknownDistrict');
    if (!(await officers.districtsOf(officerId)).includes(code)) throw forbidden('errors.officer.notYourDistrict');
    return district;
  }

  const toActions = (rows: Awaited<ReturnType<typeof repo.notesOf>>): OfficerAction[] =>
    rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      note: r.note,
      at: iso(r.at),
      // An officer who erased their account: the note stays, under the name erased authors share.
      officer: r.officer ?? FORMER_MEMBER.username,
      district: r.district,
    }));

  /** One entry per farmer: a farmer who said "worse" and asked for a call is one farmer to call, once. */
  function farmersToCall<R extends { farmerId: number; reason: CallReason; analysisId: number | null }>(rows: R[]) {
    const byFarmer = new Map<number, R & { reasons: CallReason[] }>();
    // Newest first: the first row of a farmer gives its time; its latest "worse" gives the diagnosis.
    for (const row of rows) {
      const seen = byFarmer.get(row.farmerId);
      if (!seen) byFarmer.set(row.farmerId, { ...row, reasons: [row.reason] });
      else {
        if (!seen.reasons.includes(row.reason)) seen.reasons.push(row.reason);
        seen.analysisId ??= row.analysisId;
      }
    }
    const order = ['worse', 'callback', 'walk'] as const;
    return [...byFarmer.values()].map((f) => ({ ...f, reasons: order.filter((r) => f.reasons.includes(r)) }));
  }

  /**
   * The farmers to call for the week's worse walks that went to no expert (no leaf photo at a stop:
   * docs/decisions/0084), one row per walk, of the farmers whose account is in the district (an officer
   * records a call for those).
   */
  async function worseWalks(code: string, worse: Awaited<ReturnType<WalksService['worseIn']>>) {
    const accounts = await repo.farmerAccounts(code, [...new Set(worse.map((r) => r.walk.userId))]);
    return worse.flatMap(({ walk }) => {
      const farmer = accounts.get(walk.userId);
      if (!farmer) return [];
      return [{ ...farmer, farmerId: walk.userId, reason: 'walk' as const, at: walk.walkedAt, analysisId: null }];
    });
  }

  /**
   * The week of `code` containing `day` (default: now), without the officer check (the Monday job's).
   * `own`: the officer's districts, left out of the neighbours (their own numbers are on their own pages).
   */
  async function weekOf(code: string, day?: string, own: readonly string[] = [code]): Promise<OfficerWeek> {
    const district = districtByCode(code);
    if (!district) throw notFound('errors.outbreak.unknownDistrict');
    const weekStart = weekStartOf(day ? new Date(`${day}T00:00:00Z`) : deps.clock.now());
    // A week to come holds nothing yet (weeks up to 2999 were once answered, empty).
    if (weekStart > weekStartOf(deps.clock.now()))
      throw badRequest('errors.officer.futureWeek', { week: 'errors.officer.futureWeek' });
    const from = new Date(`${weekStart}T00:00:00Z`);
    const to = new Date(`${plusWeeks(weekStart, 1)}T00:00:00Z`);
    const w = { district: code, from, to };
    const weeks = Array.from({ length: OFFICER_TREND_WEEKS }, (_, i) =>
      plusWeeks(weekStart, i - OFFICER_TREND_WEEKS + 1),
    );
    const around = district.neighbours.filter((n) => !own.includes(n));
    const [cases, near, alertSets, alerts, clinic, followUps, waiting, rows, walked, worse, nextRisk, advised] =
      await Promise.all([
        repo.farmerWeeks(code, weeks[0]!, weekStart),
        outbreak.weeklyCounts({ from: weekStart, to: weekStart }),
        Promise.all(outbreakCrops.map((c) => outbreak.openAlertDistricts(c))),
        repo.alerts(w),
        repo.clinic(w),
        repo.followUps(w),
        reviews.waitingIn(code),
        repo.farmers(w),
        walks.walksIn(code, from, to),
        walks.worseIn(code, from, to),
        forecast?.districtWeek(code),
        forecast?.advisoriesOf(code, weekStart) ?? [],
      ]);
    const advisories = await Promise.all(
      advised.map(async (a) => ({
        crop: a.crop,
        high_day: a.highDay,
        told_at: iso(a.toldAt),
        ...(await repo.advisoryCounts(code, a.crop, weekStart)),
      })),
    );
    // Newest first, as farmersToCall reads them: a farmer who said worse, asked for a call or walked a field with
    // more rust is one farmer to call.
    const farmers = farmersToCall(
      [...rows, ...(await worseWalks(code, worse))].sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime()),
    ).slice(0, FARMERS_LISTED);
    const notes = await repo.notesOf(farmers.map((f) => f.farmerId));
    const crops = outbreakCrops.map((crop) => {
      const byWeek = new Map(cases.filter((r) => r.crop === crop).map((r) => [r.weekStart, r]));
      const series = weeks.map((wk) => Number(byWeek.get(wk)?.confirmed ?? 0));
      const cell = byWeek.get(weekStart);
      return {
        crop,
        confirmed: Number(cell?.confirmed ?? 0),
        reported: Number(cell?.reported ?? 0),
        trend: weeks.map((wk, i) => ({ week: isoWeekLabel(wk), week_start: wk, confirmed: series[i]! })),
        direction: trendDirection(series),
        walks: walksOfWeek(walked, crop),
      };
    });
    // Beyond the officer's own district the open data's rule holds: a cell under 3 reads "0 to 2".
    const neighbours = around.flatMap((n) => {
      const d = districtByCode(n);
      if (!d) return [];
      const cells = near.filter((r) => r.district === n).map((r) => shownCount(Number(r.confirmed)));
      return [
        {
          code: n,
          name: d.name,
          confirmed: toSmallCount(cells.reduce((a, b) => a + b, 0)),
          alert: alertSets.some((s) => s.has(n)),
        },
      ];
    });
    const outcome = (names: string[]) =>
      followUps.filter((f) => names.includes(f.outcome)).reduce((a, f) => a + f.n, 0);
    const now = deps.clock.now().getTime();
    return {
      code,
      name: district.name,
      country: district.country,
      week: isoWeekLabel(weekStart),
      week_start: weekStart,
      crops,
      neighbours,
      alerts: alerts.map((a) => ({
        crop: a.crop,
        source_district: a.sourceDistrict,
        raised_at: iso(a.raisedAt),
        ended_at: a.endedAt ? iso(a.endedAt) : null,
        told: a.told,
        delivered: a.delivered,
        failed: a.failed,
        waiting: a.waiting,
      })),
      advisories,
      clinic: {
        visits: clinic.reduce((a, c) => a + c.n, 0),
        findings: Object.fromEntries(clinic.map((c) => [c.verdict ?? 'undecided', c.n])),
      },
      // "Less rust" is better; "unclear" is what a farmer who said "the same" is stored as. A walk's answer
      // (decision 0078) is better, same, worse, or too few plants to tell: counted apart, it says nothing of
      // whether rust changed (docs/decisions/0131).
      follow_ups: {
        better: outcome(['better', 'less']),
        same: outcome(['unclear', 'same']),
        worse: outcome(['worse']),
        too_few: outcome(['too_few_plants']),
      },
      ...(nextRisk && { next_risk: nextRisk }),
      review: {
        waiting: waiting.waiting,
        oldest_hours: waiting.oldest ? Math.round((now - waiting.oldest.getTime()) / 360_000) / 10 : null,
      },
      farmers: farmers.map((f) => ({
        farmer_id: f.farmerId,
        username: f.username,
        phone: f.phone,
        language: f.language,
        reasons: f.reasons,
        at: iso(f.at),
        analysis_id: f.analysisId,
        actions: toActions(notes.filter((n) => n.farmerId === f.farmerId)),
      })),
    };
  }

  return {
    weekOf,

    async week(officerId: number, code: string, day?: string): Promise<OfficerWeek> {
      await ownDistrict(officerId, code);
      return weekOf(code, day, await officers.districtsOf(officerId));
    },

    /** The week of every district of the officer, in the order they applied for them. */
    async weeks(officerId: number, day?: string): Promise<OfficerWeek[]> {
      const codes = await officers.districtsOf(officerId);
      if (codes.length === 0) throw forbidden('errors.officer.notYourDistrict');
      return Promise.all(codes.map((code) => weekOf(code, day, codes)));
    },

    /** Records a call or a visit to a farmer of the officer's district. */
    async act(officerId: number, code: string, body: z.output<typeof officerActionBody>): Promise<OfficerAction> {
      await ownDistrict(officerId, code);
      const district = await repo.farmerDistrict(body.farmer_id);
      if (district === undefined) throw notFound('errors.officer.farmerNotInDistrict');
      if (district !== code) throw forbidden('errors.officer.farmerNotInDistrict');
      if (body.analysis_id !== undefined && !(await repo.analysisOf(body.analysis_id, body.farmer_id))) {
        throw notFound('errors.analysis.notFound');
      }
      await repo.addAction({
        officerId,
        farmerId: body.farmer_id,
        analysisId: body.analysis_id ?? null,
        district: code,
        kind: body.kind,
        note: body.note,
        createdAt: deps.clock.now(),
      });
      const [latest] = toActions(await repo.notesOf([body.farmer_id]));
      return latest;
    },

    /** Officers' notes on a farmer, newest first: experts see them on the farmer's case. */
    notesOf: async (farmerId: number) => toActions(await repo.notesOf([farmerId])).slice(0, 20),

    /** The Monday report to every approved officer (weekly.ts); the hourly sweep calls it. */
    sendWeekly: createWeeklyReport(deps, {
      weekOf,
      districts: officers.approvedDistricts,
      officersOf: officers.officersOf,
    }),
  };
}
export type ExtensionService = ReturnType<typeof createExtensionService>;
