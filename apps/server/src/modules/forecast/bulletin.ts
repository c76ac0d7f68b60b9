import { districts, type ForecastCrop, forecastCrops, type RiskLevel, worstLevel } from '@kutu/contract';
import { csvLine } from '../../lib/csv.ts';
import type { RiskRow } from './forecast.repo.ts';

/** What the bulletin reads per district and crop: confirmed farmer-weeks of 14 days, the latest walked week. */
export type BulletinInputs = {
  risks: Map<ForecastCrop, RiskRow[]>;
  confirmed: Map<string, number>;
  walked: Map<string, { fields: number; median: number | null }>;
  runAt: Date | null;
  /** Districts whose advisories are held this week (docs/decisions/0128): district → the reason. */
  held?: Map<string, string>;
};

/** One district and crop of the bulletin, in its order (`place` 1 is walked first); the CSV and the PDF list these. */
export type BulletinRow = {
  place: number;
  district: string;
  name: string;
  country: string;
  crop: ForecastCrop;
  risk: RiskLevel;
  highDays: string[];
  confirmed: number;
  fieldsWalked: number;
  median: number | null;
  /** A high week with nothing confirmed yet: rust weather with rust next door, before it is seen. */
  walkFirst: boolean;
  /** The reason this week's advisories of the district are held, or null (docs/decisions/0128). */
  held: string | null;
};

/**
 * The forecast's score as the bulletin prints it (docs/decisions/0129); null scores when there is too little.
 * The latest the weekly sweep stored, of the ISO week starting `weekStart` (docs/decisions/0137).
 */
export type BulletinScore = {
  weekStart: string;
  weeks: number;
  cases: number;
  hitRate: number | null;
  falseAlarmRatio: number | null;
  peirce: number | null;
  brierSkill: number | null;
};

/** `score`: null when the weekly sweep has not scored yet; absent, not printed. */
export type Bulletin = { rows: BulletinRow[]; runAt: Date | null; score?: BulletinScore | null };

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
  'advisories_held',
] as const;

/**
 * The national bulletin (docs/decisions/0100, 0122): every district and crop with its confirmed cases of
 * 14 days, its walks' median incidence and next week's risk. The districts to walk first lead: a high week
 * where nothing is confirmed yet, then a high week with rust confirmed, then moderate, low and unknown; more
 * confirmed next door first within each.
 */
export function bulletinRows(b: BulletinInputs): Bulletin {
  const rows = forecastCrops.flatMap((crop) => {
    const byDistrict = new Map<string, RiskRow[]>();
    for (const r of b.risks.get(crop) ?? []) {
      const list = byDistrict.get(r.district) ?? byDistrict.set(r.district, []).get(r.district)!;
      list.push(r);
    }
    return districts.map((d) => {
      const days = byDistrict.get(d.code) ?? [];
      const risk = worstLevel(days.map((r) => r.level));
      const confirmed = b.confirmed.get(`${d.code}|${crop}`) ?? 0;
      const near = d.neighbours.reduce((a, n) => a + (b.confirmed.get(`${n}|${crop}`) ?? 0), 0);
      const walked = b.walked.get(`${d.code}|${crop}`);
      const walkFirst = risk === 'high' && confirmed === 0;
      return {
        order: [rank[risk], walkFirst ? 0 : 1, -near] as const,
        row: {
          place: 0,
          district: d.code,
          name: d.name,
          country: d.country,
          crop,
          risk,
          highDays: days.filter((r) => r.level === 'high').map((r) => r.day),
          confirmed,
          fieldsWalked: walked?.fields ?? 0,
          median: walked?.median ?? null,
          walkFirst,
          held: b.held?.get(d.code) ?? null,
        },
      };
    });
  });
  rows.sort((x, y) => {
    for (let i = 0; i < 3; i++) if (x.order[i] !== y.order[i]) return x.order[i] - y.order[i];
    return x.row.district.localeCompare(y.row.district);
  });
  return { rows: rows.map((r, i) => ({ ...r.row, place: i + 1 })), runAt: b.runAt };
}

/** A median incidence to three places, as the CSV and the PDF print it ('' when nothing was walked). */
export const medianText = (m: number | null) => (m === null ? '' : String(Math.round(m * 1000) / 1000));

/**
 * The bulletin as CSV, with codes (for spreadsheets): one line per district and crop, in the bulletin's order;
 * `walk_first` numbers the districts to walk first and is empty on every other line.
 */
export function bulletinCsv(b: Bulletin): string {
  const runAt = b.runAt?.toISOString() ?? '';
  return [
    csvLine([...BULLETIN_COLUMNS]),
    ...b.rows.map((r) =>
      csvLine([
        r.walkFirst ? r.place : '',
        r.district,
        r.name,
        r.country,
        r.crop,
        r.risk,
        r.highDays.join(' '),
        r.confirmed,
        r.fieldsWalked,
        medianText(r.median),
        runAt,
        r.held ?? '',
      ]),
    ),
  ].join('');
}
