import { type SmallCount, toSmallCount, trendDirection } from '@kutu/contract';
import type { OutbreakRepo } from './outbreak.repo.ts';
import { shownCount } from '@kutu/contract';
import { weekStartOf, weeksBefore } from './rule.ts';

/** Weeks the menu's "rust in my district now" covers: the last two against the two before. */
export const MENU_WEEKS = 4;
export const MENU_CROPS = ['maize', 'beans'] as const;

export interface CropNow {
  crop: (typeof MENU_CROPS)[number];
  /** Confirmed cases (farmer-weeks) over MENU_WEEKS, under the privacy rule of decision 0033. */
  confirmed: SmallCount;
  trend: 'rising' | 'falling' | 'steady';
  alert: boolean;
}

/**
 * Rust in one district now, as the USSD menu says it: confirmed cases only, real data only (try-out
 * cases are never shown as real, and a phone screen has no room to flag them), the trend in words. Any
 * farmer may read any district here, so it is counted as every other surface counts (decision 0052): the
 * total and the trend add shown weekly cells only (`shownCount()`), and a total under 3 reads "0 to 2" (none
 * and one or two look alike, so the words say both).
 */
export function createDistrictRust(repo: OutbreakRepo) {
  return async function districtNow(district: string, now: Date): Promise<CropNow[]> {
    const last = weekStartOf(now);
    const weeks = Array.from({ length: MENU_WEEKS }, (_, i) => weeksBefore(last, MENU_WEEKS - 1 - i));
    return Promise.all(
      MENU_CROPS.map(async (crop) => {
        const [rows, alerts] = await Promise.all([
          repo.weekly({ crop, from: weeks[0], district, realOnly: true }),
          repo.openAlertDistricts(crop),
        ]);
        const byWeek = new Map(rows.map((r) => [r.weekStart, Number(r.confirmed)]));
        const series = weeks.map((w) => shownCount(byWeek.get(w) ?? 0));
        return {
          crop,
          confirmed: toSmallCount(series.reduce((a, b) => a + b, 0)),
          trend: trendDirection(series),
          alert: alerts.has(district),
        } satisfies CropNow;
      }),
    );
  };
}
