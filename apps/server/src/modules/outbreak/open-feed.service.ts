import {
  districtByCode,
  OPEN_FEED_CSV_COLUMNS,
  type OpenFeedGeoJson,
  type OpenFeedQuery,
  type OutbreakCrop,
  outbreakCrops,
  smallCountText,
  toSmallCount,
} from '@kutu/contract';
import { BOUNDARY_ATTRIBUTION, BOUNDARY_LICENCE, boundaryNote, boundaryOf } from '@kutu/contract/boundaries';
import type { ModuleDeps } from '../../deps.ts';
import { csvLine } from '../../lib/csv.ts';
import type { WalksService } from '../fields/walks.service.ts';
import type { OutbreakService } from './outbreak.service.ts';
import { SMALL_COUNT_MIN, SMALL_COUNT_WORDS, shownCount } from '@kutu/contract';
import { asOfWeek, cellColumns } from './published.ts';
import { isoWeekLabel, weekStartOf } from './rule.ts';

type Query = OpenFeedQuery & { weeks: number };

/** One district-week of one crop as the open feed publishes it: counts under the small-count rule. */
interface FeedCell {
  district: string;
  crop: OutbreakCrop;
  weekStart: string;
  /** Confirmed farmer-weeks, 0 when hidden. */
  confirmed: number;
  /** Fields walked, 0 when hidden (fewer than SMALL_COUNT_MIN farmers), and their median incidence (null when hidden). */
  fields: number;
  median: number | null;
}

/** A share to three places, as the feed writes it. */
const share = (m: number) => Math.round(m * 1000) / 1000;

/**
 * The open outbreak feed (docs/decisions/0033, 0052): expert-confirmed rust cases per district, crop and ISO
 * week, and the scouting walks of that week (docs/decisions/0078): fields walked, each once with its latest
 * walk, and the median share of plants with rust on them. Each count is its own cell under the small-count
 * rule: shown at SMALL_COUNT_MIN or more (walks: farmers, never fields; decision 0105), else it reads as every hidden count does (`<` and the minimum, null), the median
 * with it; a district-week with no shown cell is left out.
 */
export function createOpenFeedService(
  deps: Pick<ModuleDeps, 'clock'>,
  uses: { outbreak: Pick<OutbreakService, 'openCells'>; walks: Pick<WalksService, 'weeklyIncidence'> },
) {
  const { clock } = deps;

  async function cells(query: Query) {
    const { weeks, rows } = await uses.outbreak.openCells(query);
    const walked = (await uses.walks.weeklyIncidence(weeks[0], query.crop)).filter(
      (w) => shownCount(w.farmers) > 0 && (outbreakCrops as readonly string[]).includes(w.crop),
    );
    const byKey = new Map<string, FeedCell>();
    const cell = (district: string, crop: string, weekStart: string) => {
      const key = `${district}|${crop}|${weekStart}`;
      let c = byKey.get(key);
      if (!c) {
        c = { district, crop: crop as OutbreakCrop, weekStart, confirmed: 0, fields: 0, median: null };
        byKey.set(key, c);
      }
      return c;
    };
    for (const r of rows) cell(r.district, r.crop, r.weekStart).confirmed = Number(r.confirmed);
    for (const w of walked)
      Object.assign(cell(w.district, w.crop, w.weekStart), { fields: w.fields, median: share(w.median) });
    const list = [...byKey.values()].sort(
      (a, b) =>
        a.weekStart.localeCompare(b.weekStart) || a.district.localeCompare(b.district) || a.crop.localeCompare(b.crop),
    );
    // The week the shown figures last changed: the counts' (asOfWeek), or a later walk's.
    const walkWeeks = walked.map((w) => `${weekStartOf(new Date(w.lastWalk))}T00:00:00.000Z`);
    const asOf =
      [asOfWeek(rows), ...walkWeeks]
        .filter((x): x is string => x !== null)
        .sort()
        .at(-1) ?? null;
    return { weeks, cells: list, asOf };
  }

  const walkColumns = (c: FeedCell) => [
    smallCountText(toSmallCount(c.fields)),
    c.median === null ? '' : String(c.median),
  ];

  return {
    async openCsv(query: Query): Promise<string> {
      const { cells: list } = await cells(query);
      return [
        csvLine([...OPEN_FEED_CSV_COLUMNS]),
        ...list.map((c) => csvLine([...cellColumns(c), ...walkColumns(c)])),
      ].join('');
    },

    async openGeoJson(query: Query): Promise<OpenFeedGeoJson> {
      const { weeks, cells: list, asOf } = await cells(query);
      const groups = new Map<string, FeedCell[]>();
      for (const c of list) {
        const key = `${c.district}|${c.crop}`;
        groups.set(key, [...(groups.get(key) ?? []), c]);
      }
      return {
        type: 'FeatureCollection',
        generated_at: clock.now().toISOString(),
        data_as_of: asOf,
        from: weeks[0],
        to: clock.now().toISOString().slice(0, 10),
        attribution: [...BOUNDARY_ATTRIBUTION],
        licence: `Counts: Kutu, CC BY 4.0. ${BOUNDARY_LICENCE}`,
        privacy: `Confirmed rust cases per district, crop and ISO week (one farmer counts once a week), and the fields farmers walked that week (each field once) with the median share of plants with rust on them. A count of 0 to ${SMALL_COUNT_WORDS.max} is not published (it reads "below ${SMALL_COUNT_MIN}"); the fields walked and their median are published only when they belong to ${SMALL_COUNT_MIN} farmers or more (else "below ${SMALL_COUNT_MIN}", the median null); a district-week with neither published is not listed.`,
        features: [...groups.values()].map((cellsOf) => {
          const first = cellsOf[0];
          const d = districtByCode(first.district);
          return {
            type: 'Feature' as const,
            id: `${first.district}:${first.crop}`,
            geometry: boundaryOf(first.district),
            properties: {
              code: first.district,
              name: d?.name ?? first.district,
              country: d?.country ?? 'UG',
              crop: first.crop,
              ...boundaryNote(first.district),
              weeks: cellsOf.map((c) => ({
                week: isoWeekLabel(c.weekStart),
                week_start: c.weekStart,
                confirmed: toSmallCount(c.confirmed),
                fields_walked: toSmallCount(c.fields),
                median_incidence: c.median,
              })),
            },
          };
        }),
      };
    },
  };
}
