import {
  districtByCode,
  districts,
  MAP_WINDOW_DAYS,
  OUTBREAK_EXPORT_COLUMNS,
  type OpenFeedQuery,
  type OutbreakCrop,
  type OutbreakExportQuery,
  type OutbreakMapReply,
  type OutbreakTablePage,
  type OutbreakTableRow,
  type OutbreakTrendReply,
  type PageQuery,
  shownCount,
  SMALL_COUNT_MIN,
  smallCountText,
  TREND_WEEKS,
  toSmallCount,
  trendDirection,
} from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { csvLine } from '../../lib/csv.ts';
import { notFound } from '../../lib/errors.ts';
import { toPage } from '../../lib/pagination.ts';
import type { createOutbreakRepo } from './outbreak.repo.ts';
import { isoWeekLabel, weekStartOf, weeksBefore } from './rule.ts';

/*
 * What outbreak watch publishes, under the privacy rule of docs/decisions/0052 (amending 0033). The unit
 * is the cell: one district, crop, ISO week and state (confirmed, reported). A cell is shown when it
 * holds SMALL_COUNT_MIN or more farmer-weeks; a cell of 0, 1 or 2 is "fewer than 3", all alike, and a
 * district-week with no shown cell is left out everywhere, so a case cannot be seen by its presence.
 * Every total (the map's window, the table's 14 days) is the sum of shown cells only: any difference
 * between two published figures is then a sum of shown cells too, never 1 or 2.
 */

/**
 * A part of a cell (unreviewed of reported) as published: shown only when the rest of the cell is 0 or
 * shown too, else reported − unreviewed would give a 1 or a 2.
 */
export function shownPart(part: number, whole: number): number {
  const p = shownCount(part);
  const rest = shownCount(whole) - p;
  return p > 0 && (rest === 0 || rest >= SMALL_COUNT_MIN) ? p : 0;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

type WeekRow = Awaited<ReturnType<ReturnType<typeof createOutbreakRepo>['weekly']>>[number];

/** The columns both CSVs start with: the week, the district, the crop and the confirmed count as published. */
export function cellColumns(r: Pick<WeekRow, 'weekStart' | 'district' | 'crop' | 'confirmed'>) {
  const d = districtByCode(r.district);
  return [
    isoWeekLabel(r.weekStart),
    r.weekStart,
    r.district,
    d?.name ?? '',
    d?.country ?? '',
    r.crop,
    smallCountText(toSmallCount(Number(r.confirmed))),
  ];
}

const anyShown = (r: WeekRow) => shownCount(Number(r.confirmed)) > 0 || shownCount(Number(r.reported)) > 0;

/**
 * The district-weeks as published: a week's real cases and its try-out (demo) cases are two cells, each
 * shown only when it holds SMALL_COUNT_MIN or more on its own, and the week's figures add the shown
 * ones. A demo cell beside 1 or 2 real cases never lifts them into view, so the demo's layout (public,
 * in cli/outbreak-demo.ts) cannot be taken away from a figure to learn real cases. `demo` says a shown
 * demo cell is in the figures; `changed` is the last change of a shown cell.
 */
export function publishedWeeks(rows: WeekRow[]): WeekRow[] {
  const weeks = new Map<string, WeekRow>();
  for (const r of rows) {
    const key = `${r.district}|${r.crop}|${r.weekStart}`;
    const visible = anyShown(r);
    const part = {
      ...r,
      confirmed: shownCount(Number(r.confirmed)),
      reported: shownCount(Number(r.reported)),
      unreviewed: shownPart(Number(r.unreviewed), Number(r.reported)),
      demo: Boolean(r.demo) && visible,
      changed: visible ? r.changed : new Date(0),
    };
    const week = weeks.get(key);
    if (!week) {
      weeks.set(key, part);
      continue;
    }
    weeks.set(key, {
      ...week,
      confirmed: week.confirmed + part.confirmed,
      reported: week.reported + part.reported,
      unreviewed: week.unreviewed + part.unreviewed,
      demo: week.demo || part.demo,
      changed: new Date(week.changed) > new Date(part.changed) ? week.changed : part.changed,
    });
  }
  return [...weeks.values()];
}

/** The ISO week (its Monday, 00:00 UTC) in which the shown counts last changed: nothing finer (0033). */
export function asOfWeek(rows: WeekRow[]): string | null {
  let max: Date | null = null;
  for (const r of rows) {
    const at = new Date(r.changed);
    if (anyShown(r) && (!max || at > max)) max = at;
  }
  return max ? `${weekStartOf(max)}T00:00:00.000Z` : null;
}

/** The window's weeks: `weeks` of them ending with the week of `now`, as Mondays. */
export function weekList(now: Date, weeks: number): string[] {
  const last = weekStartOf(now);
  return Array.from({ length: weeks }, (_, i) => weeksBefore(last, weeks - 1 - i));
}

function byDistrict(rows: WeekRow[]): Map<string, WeekRow[]> {
  const out = new Map<string, WeekRow[]>();
  for (const r of rows) out.set(r.district, [...(out.get(r.district) ?? []), r]);
  return out;
}

/** The map, trend, expert table, CSV export and open feed. */
export function createOutbreakPublishing(
  deps: Pick<ModuleDeps, 'clock' | 'lists'>,
  repo: ReturnType<typeof createOutbreakRepo>,
) {
  const { clock } = deps;
  /** Map replies per crop and window, dropped in every process by any count change (docs/decisions/0025). */
  const mapCache = deps.lists.of<OutbreakMapReply>('outbreak-map');

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
    const [weekly, alerts] = await Promise.all([repo.weekly({ crop, from }), repo.openAlertDistricts(crop)]);
    const rows = publishedWeeks(weekly);
    const grouped = byDistrict(rows);
    const codes = new Set([...grouped.keys(), ...alerts]);
    const list = [...codes].sort().flatMap((code) => {
      const own = grouped.get(code) ?? [];
      const confirmed = sum(own.map((r) => shownCount(Number(r.confirmed))));
      const reported = sum(own.map((r) => shownCount(Number(r.reported))));
      if (!confirmed && !reported && !alerts.has(code)) return [];
      return [
        {
          code,
          confirmed: toSmallCount(confirmed),
          reported: toSmallCount(reported),
          demo: own.some((r) => r.demo && anyShown(r)),
          alert: alerts.has(code),
        },
      ];
    });
    return {
      crop,
      window_days: weeks * 7,
      from,
      to: now.toISOString().slice(0, 10),
      data_as_of: asOfWeek(rows),
      generated_at: now.toISOString(),
      districts: list,
      demo: list.some((d) => d.demo),
    };
  }

  async function trend(code: string, crop: OutbreakCrop): Promise<OutbreakTrendReply> {
    const district = districtByCode(code);
    if (!district) throw notFound('errors.outbreak.unknownDistrict');
    const weeks = weekList(clock.now(), TREND_WEEKS);
    const rows = publishedWeeks(await repo.weekly({ crop, from: weeks[0], district: code }));
    const byWeek = new Map(rows.map((r) => [r.weekStart, r]));
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
          demo: Boolean(r?.demo && anyShown(r)),
        };
      }),
      data_as_of: asOfWeek(rows),
      demo: rows.some((r) => r.demo && anyShown(r)),
    };
  }

  async function table(query: PageQuery & { crop: OutbreakCrop; country?: 'UG' | 'KE' }): Promise<OutbreakTablePage> {
    const weeks = weekList(clock.now(), TREND_WEEKS);
    const inWindow = new Set(weeks.slice(-Math.ceil(MAP_WINDOW_DAYS / 7)));
    const [weekly, alerts] = await Promise.all([
      repo.weekly({ crop: query.crop, from: weeks[0] }),
      repo.openAlertDistricts(query.crop),
    ]);
    const grouped = byDistrict(publishedWeeks(weekly));
    const rows = districts
      .filter((d) => !query.country || d.country === query.country)
      .flatMap((d) => {
        const own = grouped.get(d.code) ?? [];
        if (!own.some(anyShown) && !alerts.has(d.code)) return [];
        const recentRows = own.filter((r) => inWindow.has(r.weekStart));
        const confirmed = sum(recentRows.map((r) => shownCount(Number(r.confirmed))));
        const reported = sum(recentRows.map((r) => shownCount(Number(r.reported))));
        const unreviewed = sum(recentRows.map((r) => shownPart(Number(r.unreviewed), Number(r.reported))));
        const byWeek = new Map(own.map((r) => [r.weekStart, shownCount(Number(r.confirmed))]));
        const series = weeks.map((wk) => byWeek.get(wk) ?? 0);
        return [
          {
            raw: { unreviewed, confirmed },
            row: {
              code: d.code,
              name: d.name,
              country: d.country,
              confirmed: toSmallCount(confirmed),
              reported: toSmallCount(reported),
              unreviewed: toSmallCount(unreviewed),
              trend: series.map(toSmallCount),
              direction: trendDirection(series),
              alert: alerts.has(d.code),
              demo: own.some((r) => r.demo && anyShown(r)),
            } satisfies OutbreakTableRow,
          },
        ];
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

  /** One line per cell: a week's real and demo cases on lines of their own, each shown on its own. */
  async function exportCsv(query: OutbreakExportQuery): Promise<string> {
    const now = clock.now();
    const from = query.from ? weekStartOf(new Date(`${query.from}T00:00:00Z`)) : weeksBefore(weekStartOf(now), 103);
    const rows = (await repo.weekly({ crop: query.crop, from, to: query.to })).filter(anyShown);
    return [
      csvLine([...OUTBREAK_EXPORT_COLUMNS]),
      ...rows.map((r) =>
        csvLine([...cellColumns(r), smallCountText(toSmallCount(Number(r.reported))), Boolean(r.demo)]),
      ),
    ].join('');
  }

  /** The open feed's confirmed cells: shown cells of real cases only (try-out data is never published). */
  async function openCells(query: OpenFeedQuery & { weeks: number }) {
    const weeks = weekList(clock.now(), query.weeks);
    const rows = (await repo.weekly({ crop: query.crop, from: weeks[0], realOnly: true })).filter(
      (r) => shownCount(Number(r.confirmed)) > 0,
    );
    return { weeks, rows };
  }

  return { map, mapUncached: mapNow, trend, table, exportCsv, openCells };
}
