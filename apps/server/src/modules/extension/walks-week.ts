import {
  type OfficerWeek,
  SMALL_COUNT_MIN,
  SMALL_COUNT_WORDS,
  type SmallCount,
  smallCountText,
  toSmallCount,
} from '@kutu/contract';
import { BEANS_SPRAY_FROM, MAIZE_SPRAY_FROM } from '@kutu/contract/field-rules';
import type { MessageKey, Params } from '../../i18n/i18n.ts';

/** The share of plants with rust from which the field advice says spray (before the late stages), by crop. */
const SPRAY_FROM: Record<string, number> = { maize: MAIZE_SPRAY_FROM, beans: BEANS_SPRAY_FROM };

/** A walk as the officer's week reads it: its field, crop, time and counts. */
interface WalkOfWeek {
  walk: { id: number; fieldId: number; userId: number; walkedAt: Date; plantsLooked: number; plantsRust: number };
  crop: string;
}

/** The middle of the values (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The week's walks of one crop in a district (docs/decisions/0078): the fields walked, each once with its
 * latest walk, the median share of plants with rust on them, and how many of them are at or above the share
 * from which the advice says spray. The small-count rule counts farmers, never fields (docs/decisions/0052,
 * 0105): fields of fewer than SMALL_COUNT_MIN farmers are hidden as every small count is, and their median
 * with them: one farmer's three fields would show that farmer's own share.
 */
export function walksOfWeek(
  rows: WalkOfWeek[],
  crop: string,
): { fields: SmallCount; median_incidence: number | null; at_spray_share: SmallCount } {
  const latest = new Map<number, WalkOfWeek['walk']>();
  for (const { walk, crop: c } of rows) {
    if (c !== crop || walk.plantsLooked <= 0) continue;
    const seen = latest.get(walk.fieldId);
    if (
      !seen ||
      walk.walkedAt > seen.walkedAt ||
      (walk.walkedAt.getTime() === seen.walkedAt.getTime() && walk.id > seen.id)
    )
      latest.set(walk.fieldId, walk);
  }
  const shares = [...latest.values()].map((w) => w.plantsRust / w.plantsLooked);
  const farmers = new Set([...latest.values()].map((w) => w.userId)).size;
  const from = SPRAY_FROM[crop];
  const atSpray = from === undefined ? 0 : shares.filter((s) => s >= from).length;
  if (farmers < SMALL_COUNT_MIN)
    return { fields: toSmallCount(0), median_incidence: null, at_spray_share: toSmallCount(0) };
  return {
    fields: toSmallCount(shares.length),
    median_incidence: Math.round(median(shares) * 1000) / 1000,
    at_spray_share: toSmallCount(atSpray),
  };
}

type CropWalks = OfficerWeek['crops'][number];
/** The CSV's rows of one crop's walks ([section, item, value]): a hidden count reads "<3" (below SMALL_COUNT_MIN), a hidden median is empty. */
export function walkRows(week: string, c: CropWalks): [string, string, string | number][] {
  return [
    [`fields_walked_${c.crop}`, week, smallCountText(c.walks.fields)],
    [`median_incidence_${c.crop}`, week, c.walks.median_incidence ?? ''],
    [`fields_at_spray_share_${c.crop}`, week, smallCountText(c.walks.at_spray_share)],
  ];
}

/** The PDF's line of one crop's walks, in the officer's language. */
export function walkLine(say: (key: MessageKey, params?: Params) => string, c: CropWalks, crop: string): string {
  const { fields, median_incidence: median, at_spray_share: spray } = c.walks;
  if (median === null) return say('officer.report.walksFew', { crop, ...SMALL_COUNT_WORDS });
  return say('officer.report.walks', {
    crop,
    fields: smallCountText(fields),
    median: `${Math.round(median * 100)} %`,
    spray: spray.below_min ? say('officer.report.hiddenCount', SMALL_COUNT_WORDS) : String(spray.count),
  });
}
