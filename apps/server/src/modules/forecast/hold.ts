import {
  districtByCode,
  type ForecastCrop,
  type ForecastHoldBody,
  type PendingAdvisoriesReply,
  isDistrictCode,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { weekStartOf } from '../../lib/iso-weeks.ts';
import type { ApplicationsService } from '../vetting/applications.service.ts';
import type { RiskRow } from './forecast.repo.ts';
import type { HoldRepo } from './hold.repo.ts';
import { localDays, WEATHER_MAX_AGE_HOURS } from './week.ts';

/** Uganda and Kenya keep East Africa Time (UTC+3) all year. */
const EAT_HOURS = 3;
const DAY_MS = 86_400_000;

/** The latest send instant at or before `now`: `hour`:00 East Africa Time today, or yesterday's. */
export function lastSendAt(now: Date, hour: number): Date {
  const [today] = localDays(now, 1);
  const at = new Date(`${today}T00:00:00Z`).getTime() + (hour - EAT_HOURS) * 3_600_000;
  return new Date(at <= now.getTime() ? at : at - DAY_MS);
}

/** The first send instant at or after `t`. */
export function nextSendAt(t: Date, hour: number): Date {
  const last = lastSendAt(t, hour);
  return last.getTime() === t.getTime() ? last : new Date(last.getTime() + DAY_MS);
}

type Reader = { userId: number; role: string };
type Log = (msg: string, err?: unknown) => void;

/** The first high day per `district|crop`, in the rows' order (days ascending). */
export function firstHighs(rows: RiskRow[]): Map<string, RiskRow> {
  const out = new Map<string, RiskRow>();
  for (const r of rows) {
    const k = `${r.district}|${r.crop}`;
    if (r.level === 'high' && !out.has(k)) out.set(k, r);
  }
  return out;
}

/**
 * A person between a run and a national send (docs/decisions/0128). A run's advisories go out at the first
 * send instant (ADVISORY_SEND_HOUR, East Africa Time, daily) after it, from the latest run made by then, less
 * the districts an administrator or national officer holds for the week; a hold lifted goes at the next send.
 */
export function createHolds(
  deps: Pick<ModuleDeps, 'clock' | 'config'>,
  repo: HoldRepo,
  advise: (runId: number, risks: RiskRow[]) => Promise<{ district: string; crop: string }[]>,
  national: Pick<ApplicationsService, 'isNationalOfficer'> | undefined,
  log: Log,
) {
  const hour = deps.config.weather.advisorySendHour;

  /** A run's high districts not held at `at`, through the advisories; nothing from weather past its maximum age now. */
  async function send(run: { id: number; weatherFetchedAt: Date | null } | null, now: Date, at: Date) {
    if (!run) return [];
    // Weather young at the run may be old by the send (docs/decisions/0126).
    const fetched = run.weatherFetchedAt?.getTime();
    if (fetched === undefined || now.getTime() - fetched > WEATHER_MAX_AGE_HOURS * 3_600_000) return [];
    const [today] = localDays(now, 1);
    const blocked = await repo.blockedAt(weekStartOf(now), at);
    const risks = (await repo.highRisks(run.id, today)).filter((r) => !blocked.has(r.district));
    return advise(run.id, risks);
  }

  async function mayHold(reader: Reader) {
    const ok =
      reader.role === 'admin' ||
      (reader.role === 'officer' && (await national?.isNationalOfficer(reader.userId)) === true);
    if (!ok) throw forbidden('errors.officer.notNational');
  }

  return {
    /** 403 unless an administrator or a national officer (docs/decisions/0122). */
    mayHold,
    /**
     * The send: the latest run made by the latest send instant, its high districts not held, through the
     * advisories (told once a week per district and crop; farmers with a field made since, after). The hourly
     * sweep and every run call it; before a day's send instant it sends the day before's run again (nothing new).
     */
    async sendDue() {
      const now = deps.clock.now();
      const sendAt = lastSendAt(now, hour);
      return send(await repo.lastRunBy(sendAt), now, sendAt);
    },

    /**
     * A national officer or administrator who has read the week's advisories sends them now rather than at the
     * send hour: the latest run's, less the districts held now; logged with who.
     */
    async sendNow(reader: Reader) {
      await mayHold(reader);
      const now = deps.clock.now();
      const told = await send(await repo.lastRunBy(now), now, now);
      log(`forecast: user ${reader.userId} sent the week's advisories now (${told.length} district and crop pairs)`);
      return { told: told.length };
    },

    /** The week's advisories by district and crop before (and after) they go, and the week's holds. */
    async pending(reader: Reader, latest: { id: number; ranAt: Date } | null): Promise<PendingAdvisoriesReply> {
      await mayHold(reader);
      const now = deps.clock.now();
      const week = weekStartOf(now);
      const [today] = localDays(now, 1);
      const holds = await repo.holds(week);
      const told = await repo.toldIn(week);
      const open = new Set(holds.filter((h) => !h.liftedAt).map((h) => h.district));
      const liftedAt = new Map<string, Date>();
      for (const h of holds)
        if (h.liftedAt && h.liftedAt > (liftedAt.get(h.district) ?? 0)) liftedAt.set(h.district, h.liftedAt);
      const rows = latest ? await repo.highRisks(latest.id, today) : [];
      const advisories = [...firstHighs(rows).values()].map((r) => {
        const k = `${r.district}|${r.crop}`;
        const toldAt = told.get(k) ?? null;
        const state = toldAt ? ('sent' as const) : open.has(r.district) ? ('held' as const) : ('due' as const);
        const lifted = liftedAt.get(r.district);
        const from = lifted && latest && lifted > latest.ranAt ? lifted : (latest?.ranAt ?? now);
        return {
          district: r.district,
          name: districtByCode(r.district)?.name ?? r.district,
          crop: r.crop as ForecastCrop,
          high_day: r.day,
          basis: r.basis,
          state,
          due_at: state === 'due' ? nextSendAt(from, hour).toISOString() : null,
          told_at: toldAt?.toISOString() ?? null,
        };
      });
      // Held first, then due, then sent; by district's name within each.
      const rank = { held: 0, due: 1, sent: 2 };
      advisories.sort(
        (a, b) => rank[a.state] - rank[b.state] || a.name.localeCompare(b.name) || a.crop.localeCompare(b.crop),
      );
      return {
        week_start: week,
        run_at: latest?.ranAt.toISOString() ?? null,
        send_hour_eat: hour,
        next_send_at: nextSendAt(now, hour).toISOString(),
        advisories,
        holds: holds.map((h) => ({
          id: h.id,
          district: h.district,
          name: districtByCode(h.district)?.name ?? h.district,
          week_start: h.weekStart,
          reason: h.reason,
          held: { by: h.heldBy, at: h.heldAt.toISOString() },
          lifted: h.liftedAt ? { by: h.liftedBy, at: h.liftedAt.toISOString() } : null,
        })),
      };
    },

    /** Holds a district's advisories of this week (every crop), with the reason; logged with who and when. */
    async hold(reader: Reader, body: ForecastHoldBody) {
      await mayHold(reader);
      if (!isDistrictCode(body.district)) throw badRequest('errors.forecast.unknownDistrict');
      const now = deps.clock.now();
      const week = weekStartOf(now);
      if ((await repo.holds(week)).some((h) => h.district === body.district && !h.liftedAt))
        throw conflict('errors.forecast.alreadyHeld');
      const row = await repo.hold({
        district: body.district,
        weekStart: week,
        reason: body.reason,
        heldBy: reader.userId,
        heldAt: now,
      });
      log(`forecast: user ${reader.userId} held ${body.district}'s advisories of ${week}: ${body.reason}`);
      return { id: row.id };
    },

    /** Lifts a hold: the district's advisories go at the next send instant. */
    async lift(reader: Reader, id: number) {
      await mayHold(reader);
      const now = deps.clock.now();
      const found = await repo.find(id);
      if (!found) throw notFound('errors.forecast.holdNotFound');
      const row = await repo.lift(id, reader.userId, now);
      if (!row) throw conflict('errors.forecast.holdLifted');
      log(`forecast: user ${reader.userId} lifted the hold on ${row.district}'s advisories of ${row.weekStart}`);
      return { id: row.id, next_send_at: nextSendAt(now, hour).toISOString() };
    },

    /** This week's holds not lifted, for the bulletin: district → the reason. */
    async heldNow(): Promise<Map<string, string>> {
      const holds = await repo.holds(weekStartOf(deps.clock.now()));
      return new Map(holds.filter((h) => !h.liftedAt).map((h) => [h.district, h.reason]));
    },
  };
}
