import {
  type OfficerWeek,
  SMALL_COUNT_MIN,
  SMALL_COUNT_WORDS,
  type SmallCount,
  smallCountText,
  toSmallCount,
} from '@kutu/contract';
import { adviseField, type FieldCrop, fieldCrops, type GrowthStage } from '@kutu/contract/field-rules';
import type { MessageKey, Params } from '../../i18n/i18n.ts';

/** A walk as the officer's week reads it: its field, crop, time, counts and the crop's age at the walk. */
interface WalkOfWeek {
  walk: {
    id: number;
    fieldId: number;
    userId: number;
    walkedAt: Date;
    plantsLooked: number;
    plantsRust: number;
    weeksSincePlanting: number | null;
    growthStage: string | null;
    stageSaid: boolean;
  };
  crop: string;
}

/**
 * Whether the field advice, as the rules read the walk today, says spray now: `adviseField` itself, so the
 * figure follows the rule (the interval's lower end at the threshold, no spray at the late stages,
 * docs/decisions/0135), not the share alone: 13 of 50 maize is over 25 % but says "do not spray yet".
 */
function adviceSaysSpray(walk: WalkOfWeek['walk'], crop: string): boolean {
  if (!(fieldCrops as readonly string[]).includes(crop)) return false;
  const advice = adviseField({
    crop: crop as FieldCrop,
    looked: walk.plantsLooked,
    rust: walk.plantsRust,
    weeks: walk.weeksSincePlanting,
    stageSaid: walk.stageSaid ? (walk.growthStage as GrowthStage | null) : null,
  });
  return advice.action === 'spray_now';
}

/** The middle of the values (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The week's walks of one crop in a district (docs/decisions/0078): the fields walked, each once with its
 * latest walk, the median share of plants with rust on them, and how many of them the advice tells to spray
 * now (`adviceSaysSpray`; the JSON keeps its name `at_spray_share`). The small-count rule counts farmers, never fields (docs/decisions/0052,
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
  const atSpray = [...latest.values()].filter((w) => adviceSaysSpray(w, crop)).length;
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
    [`fields_advised_spray_${c.crop}`, week, smallCountText(c.walks.at_spray_share)],
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
