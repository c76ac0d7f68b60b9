import type { z } from 'zod';
import {
  FORMER_MEMBER,
  districtByCode,
  type OfficerAction,
  type officerActionBody,
  type OfficerWeek,
  OFFICER_TREND_WEEKS,
  outbreakCrops,
  SMALL_COUNT_MIN,
  toSmallCount,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { OutbreakService } from '../outbreak/outbreak.service.ts';
import type { OfficerVettingService } from '../vetting/officers.service.ts';
import { createExtensionRepo } from './extension.repo.ts';
import { createWeeklyReport } from './weekly.ts';
import { isoWeekLabel, weeksBefore, weekStartOf } from '../../lib/iso-weeks.ts';

const plusWeeks = (monday: string, n: number) => weeksBefore(monday, -n);

const iso = (d: Date | string) => new Date(d).toISOString();
const shown = (n: number) => (n >= SMALL_COUNT_MIN ? n : 0);

/**
 * An extension officer's districts and their week (one screen, the CSV, the PDF and the Monday summary
 * all read `week()`, so they agree), and what officers did about a farmer. Every entry point takes the
 * officer's id and checks the district is theirs: another district is 403, an unknown one 404.
 */
export function createExtensionService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'delivery' | 'config'>,
  { outbreak, officers }: { outbreak: OutbreakService; officers: OfficerVettingService },
) {
  const repo = createExtensionRepo(deps.db);

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

  /** The week of `code` containing `day` (default: now), without the officer check (the Monday job's). */
  async function weekOf(code: string, day?: string): Promise<OfficerWeek> {
    const district = districtByCode(code);
    if (!district) throw notFound('errors.outbreak.unknownDistrict');
    const weekStart = weekStartOf(day ? new Date(`${day}T00:00:00Z`) : deps.clock.now());
    const from = new Date(`${weekStart}T00:00:00Z`);
    const to = new Date(`${plusWeeks(weekStart, 1)}T00:00:00Z`);
    const w = { district: code, from, to };
    const weeks = Array.from({ length: OFFICER_TREND_WEEKS }, (_, i) =>
      plusWeeks(weekStart, i - OFFICER_TREND_WEEKS + 1),
    );
    const around = [...district.neighbours];
    const [own, near, alertSets, alerts, clinic, followUps, waiting, farmers] = await Promise.all([
      outbreak.weeklyCounts({ from: weeks[0], to: weekStart, district: code }),
      outbreak.weeklyCounts({ from: weekStart, to: weekStart }),
      Promise.all(outbreakCrops.map((c) => outbreak.openAlertDistricts(c))),
      repo.alerts(w),
      repo.clinic(w),
      repo.followUps(w),
      repo.reviewWaiting(code),
      repo.farmers(w),
    ]);
    const notes = await repo.notesOf([...new Set(farmers.map((f) => f.farmerId))]);
    const crops = outbreakCrops.map((crop) => {
      const byWeek = new Map(own.filter((r) => r.crop === crop).map((r) => [r.weekStart, r]));
      const series = weeks.map((wk) => Number(byWeek.get(wk)?.confirmed ?? 0));
      const recent = series.at(-1)! + series.at(-2)!;
      const earlier = series.at(-3)! + series.at(-4)!;
      const cell = byWeek.get(weekStart);
      return {
        crop,
        confirmed: Number(cell?.confirmed ?? 0),
        reported: Number(cell?.reported ?? 0),
        trend: weeks.map((wk, i) => ({ week: isoWeekLabel(wk), week_start: wk, confirmed: series[i] })),
        direction:
          recent > earlier ? ('rising' as const) : recent < earlier ? ('falling' as const) : ('steady' as const),
      };
    });
    // Beyond the officer's own district the open data's rule holds: a cell under 3 reads "0 to 2".
    const neighbours = around.flatMap((n) => {
      const d = districtByCode(n);
      if (!d) return [];
      const cells = near.filter((r) => r.district === n).map((r) => shown(Number(r.confirmed)));
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
      clinic: {
        visits: clinic.reduce((a, c) => a + c.n, 0),
        findings: Object.fromEntries(clinic.map((c) => [c.verdict ?? 'undecided', c.n])),
      },
      // "Less rust" is better; "unclear" is what a farmer who said "the same" is stored as. A walk's answer
      // (decision 0078) is better, same, worse, or too few plants to tell (counted with the same).
      follow_ups: {
        better: outcome(['better', 'less']),
        same: outcome(['unclear', 'same', 'too_few_plants']),
        worse: outcome(['worse']),
      },
      review: {
        waiting: waiting?.waiting ?? 0,
        oldest_hours: waiting?.oldest ? Math.round((now - new Date(waiting.oldest).getTime()) / 360_000) / 10 : null,
      },
      farmers: farmers.map((f) => ({
        farmer_id: f.farmerId,
        username: f.username,
        phone: f.phone,
        language: f.language,
        reason: f.reason,
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
      return weekOf(code, day);
    },

    /** The week of every district of the officer, in the order they applied for them. */
    async weeks(officerId: number, day?: string): Promise<OfficerWeek[]> {
      const codes = await officers.districtsOf(officerId);
      if (codes.length === 0) throw forbidden('errors.officer.notYourDistrict');
      return Promise.all(codes.map((code) => weekOf(code, day)));
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
