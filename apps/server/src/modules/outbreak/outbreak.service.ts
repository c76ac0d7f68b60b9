import {
  districtByCode,
  districts,
  MAP_WINDOW_DAYS,
  OPEN_FEED_CSV_COLUMNS,
  OUTBREAK_EXPORT_COLUMNS,
  type OpenFeedGeoJson,
  type OpenFeedQuery,
  type OutbreakCrop,
  type OutbreakExportQuery,
  type OutbreakMapReply,
  type OutbreakSettingsReply,
  type OutbreakTablePage,
  type OutbreakTableRow,
  type OutbreakTrendReply,
  type PageQuery,
  smallCountText,
  TREND_WEEKS,
  toSmallCount,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { notFound } from '../../lib/errors.ts';
import { toPage } from '../../lib/pagination.ts';
import { boundaryOf } from '@kutu/contract/boundaries';
import { createAlertDelivery, OUTBREAK_ALERT_QUEUE } from './alert-delivery.ts';

export { OUTBREAK_ALERT_QUEUE };
import { type CaseRow, createOutbreakRepo, type FarmerWeek } from './outbreak.repo.ts';
import { ALERT_WINDOW_WEEKS, alertedBy, inOutbreak, isoWeekLabel, weekStartOf, weeksBefore } from './rule.ts';

/** How far back a farmer's photos count when the district is first set. */
export const PAST_PHOTOS_DAYS = 14;

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvLine = (cells: (string | number | boolean)[]) => `${cells.map((c) => csvCell(String(c))).join(',')}\n`;

/** When the counts shown last changed ("the date of the data"); null when none is shown. */
function latest(rows: { changed: Date | string }[]): Date | null {
  let max: Date | null = null;
  for (const r of rows) {
    const at = new Date(r.changed);
    if (!max || at > max) max = at;
  }
  return max;
}

/** The window's weeks: `weeks` of them ending with the week of `now`, as Mondays. */
function weekList(now: Date, weeks: number): string[] {
  const last = weekStartOf(now);
  return Array.from({ length: weeks }, (_, i) => weeksBefore(last, weeks - 1 - i));
}

/**
 * Outbreak watch (issue 36): cases counted per district, crop and week as analyses and verdicts change
 * (docs/decisions/0031), alerts (0032), and the map, trend, table, CSV and open feed under the privacy
 * rule (0033).
 */
export function createOutbreakService(deps: Pick<ModuleDeps, 'db' | 'clock' | 'jobs' | 'delivery' | 'lists'>) {
  const repo = createOutbreakRepo(deps.db);
  const { clock } = deps;
  /** Map replies per crop and window, dropped in every process by any count change (docs/decisions/0025). */
  const mapCache = deps.lists.of<OutbreakMapReply>('outbreak-map');

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

  const { deliver, resumeDeliveries } = createAlertDelivery(deps, repo);

  function map(crop: OutbreakCrop, days: number): Promise<OutbreakMapReply> {
    return mapCache.get(`${crop}|${days}`, async () => {
      const value = await mapNow(crop, days);
      return { value, bytes: JSON.stringify(value).length };
    });
  }

  async function mapNow(crop: OutbreakCrop, days: number): Promise<OutbreakMapReply> {
    const now = clock.now();
    const weeks = Math.ceil(days / 7);
    const from = weeksBefore(weekStartOf(now), weeks - 1);
    const [rows, alerts] = await Promise.all([repo.windowCounts(crop, from), repo.openAlertDistricts(crop)]);
    const asOf = latest(rows);
    return {
      crop,
      window_days: weeks * 7,
      from,
      to: now.toISOString().slice(0, 10),
      data_as_of: asOf?.toISOString() ?? null,
      generated_at: now.toISOString(),
      districts: rows.map((r) => ({
        code: r.district,
        confirmed: toSmallCount(Number(r.confirmed)),
        reported: toSmallCount(Number(r.reported)),
        demo: Boolean(r.demo),
        alert: alerts.has(r.district),
      })),
      demo: rows.some((r) => r.demo),
    };
  }

  async function trend(code: string, crop: OutbreakCrop): Promise<OutbreakTrendReply> {
    const district = districtByCode(code);
    if (!district) throw notFound('errors.outbreak.unknownDistrict');
    const weeks = weekList(clock.now(), TREND_WEEKS);
    const rows = await repo.weekly({ crop, from: weeks[0], district: code });
    const byWeek = new Map(rows.map((r) => [r.weekStart, r]));
    const asOf = latest(rows);
    return {
      code,
      name: district.name,
      country: district.country,
      crop,
      weeks: weeks.map((w) => {
        const r = byWeek.get(w);
        return {
          week: isoWeekLabel(w),
          week_start: w,
          confirmed: toSmallCount(Number(r?.confirmed ?? 0)),
          reported: toSmallCount(Number(r?.reported ?? 0)),
          demo: Boolean(r?.demo),
        };
      }),
      data_as_of: asOf?.toISOString() ?? null,
      demo: rows.some((r) => r.demo),
    };
  }

  async function table(query: PageQuery & { crop: OutbreakCrop; country?: 'UG' | 'KE' }): Promise<OutbreakTablePage> {
    const now = clock.now();
    const weeks = weekList(now, TREND_WEEKS);
    const windowFrom = weeksBefore(weekStartOf(now), Math.ceil(MAP_WINDOW_DAYS / 7) - 1);
    const [weekly, windowRows, alerts] = await Promise.all([
      repo.weekly({ crop: query.crop, from: weeks[0] }),
      repo.windowCounts(query.crop, windowFrom),
      repo.openAlertDistricts(query.crop),
    ]);
    const inWindow = new Map(windowRows.map((r) => [r.district, r]));
    const perDistrict = new Map<string, Map<string, number>>();
    const demoIn = new Set<string>();
    for (const r of weekly) {
      if (!perDistrict.has(r.district)) perDistrict.set(r.district, new Map());
      perDistrict.get(r.district)?.set(r.weekStart, Number(r.confirmed));
      if (r.demo) demoIn.add(r.district);
    }
    const rows = districts
      .filter(
        (d) => (perDistrict.has(d.code) || inWindow.has(d.code)) && (!query.country || d.country === query.country),
      )
      .map((d) => {
        const w = inWindow.get(d.code);
        const series = weeks.map((wk) => perDistrict.get(d.code)?.get(wk) ?? 0);
        const recent = series[series.length - 1] + series[series.length - 2];
        const earlier = series[series.length - 3] + series[series.length - 4];
        return {
          raw: { unreviewed: Number(w?.unreviewed ?? 0), confirmed: Number(w?.confirmed ?? 0) },
          row: {
            code: d.code,
            name: d.name,
            country: d.country,
            confirmed: toSmallCount(Number(w?.confirmed ?? 0)),
            reported: toSmallCount(Number(w?.reported ?? 0)),
            unreviewed: toSmallCount(Number(w?.unreviewed ?? 0)),
            trend: series.map(toSmallCount),
            direction: recent > earlier ? 'rising' : recent < earlier ? 'falling' : 'steady',
            alert: alerts.has(d.code),
            demo: demoIn.has(d.code) || Boolean(w?.demo),
          } satisfies OutbreakTableRow,
        };
      })
      .sort(
        (a, b) =>
          b.raw.unreviewed - a.raw.unreviewed ||
          b.raw.confirmed - a.raw.confirmed ||
          a.row.code.localeCompare(b.row.code),
      );
    const start = (query.page - 1) * query.page_size;
    return toPage(
      rows.slice(start, start + query.page_size).map((r) => r.row),
      rows.length,
      query,
    );
  }

  async function exportCsv(query: OutbreakExportQuery): Promise<string> {
    const now = clock.now();
    const from = query.from ? weekStartOf(new Date(`${query.from}T00:00:00Z`)) : weeksBefore(weekStartOf(now), 103);
    const rows = await repo.weekly({ crop: query.crop, from, to: query.to });
    let out = csvLine([...OUTBREAK_EXPORT_COLUMNS]);
    for (const r of rows) {
      const d = districtByCode(r.district);
      out += csvLine([
        isoWeekLabel(r.weekStart),
        r.weekStart,
        r.district,
        d?.name ?? '',
        d?.country ?? '',
        r.crop,
        smallCountText(toSmallCount(Number(r.confirmed))),
        smallCountText(toSmallCount(Number(r.reported))),
        Boolean(r.demo),
      ]);
    }
    return out;
  }

  /** The open feed's rows: confirmed, real cases only (try-out data is never published). */
  async function feedRows(query: OpenFeedQuery & { weeks: number }) {
    const weeks = weekList(clock.now(), query.weeks);
    const rows = (await repo.weekly({ crop: query.crop, from: weeks[0], realOnly: true })).filter(
      (r) => Number(r.confirmed) > 0,
    );
    return { weeks, rows };
  }

  async function openCsv(query: OpenFeedQuery & { weeks: number }): Promise<string> {
    const { rows } = await feedRows(query);
    let out = csvLine([...OPEN_FEED_CSV_COLUMNS]);
    for (const r of rows) {
      const d = districtByCode(r.district);
      out += csvLine([
        isoWeekLabel(r.weekStart),
        r.weekStart,
        r.district,
        d?.name ?? '',
        d?.country ?? '',
        r.crop,
        smallCountText(toSmallCount(Number(r.confirmed))),
      ]);
    }
    return out;
  }

  async function openGeoJson(query: OpenFeedQuery & { weeks: number }): Promise<OpenFeedGeoJson> {
    const { weeks, rows } = await feedRows(query);
    const groups = new Map<string, typeof rows>();
    for (const r of rows) {
      const key = `${r.district}|${r.crop}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    const asOf = latest(rows);
    return {
      type: 'FeatureCollection',
      generated_at: clock.now().toISOString(),
      data_as_of: asOf?.toISOString() ?? null,
      from: weeks[0],
      to: clock.now().toISOString().slice(0, 10),
      attribution: [
        'Uganda districts: Natural Earth (public domain).',
        'Kenya county boundaries © OpenStreetMap contributors, available under the Open Database License (ODbL): https://www.openstreetmap.org/copyright',
      ],
      licence:
        'Counts: Kutu, CC BY 4.0. Kenya county geometry: ODbL 1.0 (https://opendatacommons.org/licenses/odbl/1-0/).',
      privacy:
        'Confirmed rust cases per district, crop and ISO week; one farmer counts once a week. Counts of 1 or 2 are given as fewer_than_3 (count null).',
      features: [...groups.values()].map((list) => {
        const first = list[0];
        const d = districtByCode(first.district);
        return {
          type: 'Feature' as const,
          id: `${first.district}:${first.crop}`,
          geometry: boundaryOf(first.district),
          properties: {
            code: first.district,
            name: d?.name ?? first.district,
            country: d?.country ?? 'UG',
            crop: first.crop as OutbreakCrop,
            weeks: list.map((r) => ({
              week: isoWeekLabel(r.weekStart),
              week_start: r.weekStart,
              confirmed: toSmallCount(Number(r.confirmed)),
            })),
          },
        };
      }),
    };
  }

  const settingsReply = (s: {
    district: string | null;
    smsAlerts: boolean;
    role: 'farmer' | 'expert';
  }): OutbreakSettingsReply => ({
    district: s.district,
    sms_alerts: s.smsAlerts,
    needs_district: s.role === 'farmer' && s.district === null,
  });

  return {
    record,
    deliver,
    resumeDeliveries,
    map,
    /** The map's data without the cache (benchmarks). */
    mapUncached: mapNow,
    trend,
    table,
    endLapsedAlerts,
    exportCsv,
    openCsv,
    openGeoJson,
    async settings(userId: number) {
      const s = await repo.settings(userId);
      if (!s) throw notFound();
      return settingsReply(s);
    },
    async saveSettings(userId: number, body: { district?: string; sms_alerts?: boolean }) {
      const before = body.district ? await repo.settings(userId) : undefined;
      const s = await repo.saveSettings(userId, { district: body.district, smsAlerts: body.sms_alerts });
      if (!s) throw notFound();
      // A district set for the first time: the photos of the last 14 days, made without one, count there
      // now (issue 36). `record` compares with the stored case under the counts' lock, so a photo is
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
