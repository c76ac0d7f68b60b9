import { districts, type ForecastCrop, forecastCrops, type RiskLevel, worstLevel } from '@kutu/contract';
import { csvLine } from '../../lib/csv.ts';
import type { RiskRow } from './forecast.repo.ts';

/** What the bulletin reads per district and crop: confirmed farmer-weeks of 14 days, the latest walked week. */
export type BulletinInputs = {
  risks: Map<ForecastCrop, RiskRow[]>;
  confirmed: Map<string, number>;
  walked: Map<string, { fields: number; median: number | null }>;
  runAt: Date | null;
};

const rank: Record<RiskLevel, number> = { high: 0, moderate: 1, low: 2, unknown: 3 };

export const BULLETIN_COLUMNS = [
  'walk_first',
  'district',
  'name',
  'country',
  'crop',
  'next_week_risk',
  'high_days',
  'confirmed_14_days',
  'fields_walked_last_week',
  'median_incidence',
  'run_at',
] as const;

/**
 * The national bulletin for administrators (docs/decisions/0100), as CSV: every district and crop with its
 * confirmed cases of 14 days, its walks' median incidence and next week's risk. The districts to walk first
 * lead: a high week where nothing is confirmed yet (rust weather with rust next door, before it is seen), then
 * a high week with rust confirmed, then moderate, low and unknown; more confirmed next door first within each.
 */
export function bulletinCsv(b: BulletinInputs): string {
  const rows = forecastCrops.flatMap((crop) => {
    const byDistrict = new Map<string, RiskRow[]>();
    for (const r of b.risks.get(crop) ?? []) byDistrict.set(r.district, [...(byDistrict.get(r.district) ?? []), r]);
    return districts.map((d) => {
      const days = byDistrict.get(d.code) ?? [];
      const worst = worstLevel(days.map((r) => r.level));
      const confirmed = b.confirmed.get(`${d.code}|${crop}`) ?? 0;
      const near = d.neighbours.reduce((a, n) => a + (b.confirmed.get(`${n}|${crop}`) ?? 0), 0);
      const walked = b.walked.get(`${d.code}|${crop}`);
      return {
        order: [rank[worst], worst === 'high' && confirmed === 0 ? 0 : 1, -near, d.code] as const,
        cells: [
          d.code,
          d.name,
          d.country,
          crop,
          worst,
          days
            .filter((r) => r.level === 'high')
            .map((r) => r.day)
            .join(' '),
          confirmed,
          walked?.fields ?? 0,
          walked?.median === null || walked?.median === undefined ? '' : Math.round(walked.median * 1000) / 1000,
          b.runAt?.toISOString() ?? '',
        ],
      };
    });
  });
  rows.sort((x, y) => {
    for (let i = 0; i < 3; i++) if (x.order[i] !== y.order[i]) return (x.order[i] as number) - (y.order[i] as number);
    return x.order[3].localeCompare(y.order[3]);
  });
  return [csvLine([...BULLETIN_COLUMNS]), ...rows.map((r, i) => csvLine([i + 1, ...r.cells]))].join('');
}
