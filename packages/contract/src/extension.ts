import { z } from 'zod';
import { vettingStatuses } from './auth.ts';
import { isoDateTime, rowId } from './common.ts';
import { languages } from './enums.ts';
import { districtCode, outbreakTrendDirection, smallCount } from './outbreak.ts';
import { riskLevels } from './rust-weather.ts';

/*
 * Extension officers: a district agricultural officer (Uganda) or a county / sub-county agricultural
 * officer (Kenya) applies for one or more districts; an administrator approves or refuses, as for
 * experts. An approved officer sees the week of their own districts only, and records what they did
 * about a farmer whose field got worse. An officer is not an expert: no verdicts, no moderation.
 */

/** A note on a call or a visit. */
export const OFFICER_NOTE_MAX = 1000;
/** The weeks of confirmed cases the week screen draws (this week and the ones before). */
export const OFFICER_TREND_WEEKS = 8;

/** A district or county as the officer screens show it (names from the server: the list stays off the web's first load). */
export const namedDistrict = z.object({ code: z.string(), name: z.string(), country: z.enum(['UG', 'KE']) });

export const officerMeReply = z.object({
  status: z.enum(vettingStatuses),
  reason: z.string().nullable(),
  office: z.string(),
  districts: z.array(namedDistrict),
  /** A national officer reads the national bulletin too (docs/decisions/0122). */
  national: z.boolean(),
});
export type OfficerMeReply = z.infer<typeof officerMeReply>;

export const districtParams = z.object({ code: districtCode });
/**
 * The days whose week an officer may ask for: well before Kutu's first count, and far enough from the
 * year 9999 that every date the week draws (its trend weeks, the week after) is a plain YYYY-MM-DD.
 */
export const OFFICER_WEEK_DAYS = { first: '2000-01-01', last: '2999-12-31' } as const;

export const weekQuery = z.object({
  week: z.iso
    .date({ error: 'week must be a date (YYYY-MM-DD)' })
    .refine((day) => day >= OFFICER_WEEK_DAYS.first && day <= OFFICER_WEEK_DAYS.last, {
      error: `week must be a day from ${OFFICER_WEEK_DAYS.first} to ${OFFICER_WEEK_DAYS.last}`,
    })
    .optional()
    .describe(`Any day of the week, ${OFFICER_WEEK_DAYS.first} to ${OFFICER_WEEK_DAYS.last}; left out: this week`),
});

export const officerActionKinds = ['called', 'visited'] as const;

export const officerActionBody = z.object({
  farmer_id: rowId('farmer_id'),
  kind: z.enum(officerActionKinds, { error: 'Say whether you called or visited' }),
  note: z
    .string({ error: 'Write a note' })
    .trim()
    .min(1, 'Write a note')
    .max(OFFICER_NOTE_MAX, `The note must be at most ${OFFICER_NOTE_MAX} characters`),
  /** The follow-up or diagnosis the action is about, when there is one. */
  analysis_id: rowId('analysis_id').optional(),
});
export type OfficerActionBody = z.input<typeof officerActionBody>;

export const officerAction = z.object({
  id: z.number().int(),
  kind: z.enum(officerActionKinds),
  note: z.string(),
  at: isoDateTime,
  officer: z.string(),
  district: z.string(),
});
export type OfficerAction = z.infer<typeof officerAction>;

const cropWeek = z.object({
  crop: z.string(),
  /** Farmers of the district with rust an expert confirmed this week (each farmer once), unrounded. */
  confirmed: z.number().int(),
  /** Other farmers of the district whose rust only the model reported this week: none of `confirmed`. */
  reported: z.number().int(),
  /** Oldest first; the last is this week. */
  trend: z.array(z.object({ week: z.string(), week_start: z.string(), confirmed: z.number().int() })),
  direction: outbreakTrendDirection,
  /**
   * The district's fields of the crop walked this week (docs/decisions/0078), each once with its latest walk,
   * the median share of plants with rust on them, and in `at_spray_share` (a name kept from before
   * docs/decisions/0135) those whose latest walk's field advice (`adviseField`) says spray now: under the small-count rule, a count below SMALL_COUNT_MIN hidden as every hidden
   * count is, and the median with the fields (null).
   */
  walks: z.object({
    fields: smallCount,
    median_incidence: z.number().min(0).max(1).nullable(),
    at_spray_share: smallCount,
  }),
});

export const officerWeek = z.object({
  code: z.string(),
  name: z.string(),
  country: z.enum(['UG', 'KE']),
  week: z.string(),
  week_start: z.string(),
  crops: z.array(cropWeek),
  /** The district's neighbours that are not the officer's: there the open data's small-count rule holds. */
  neighbours: z.array(z.object({ code: z.string(), name: z.string(), confirmed: smallCount, alert: z.boolean() })),
  alerts: z.array(
    z.object({
      crop: z.string(),
      source_district: z.string(),
      raised_at: isoDateTime,
      ended_at: isoDateTime.nullable(),
      told: z.number().int(),
      delivered: z.number().int(),
      failed: z.number().int(),
      waiting: z.number().int(),
    }),
  ),
  /**
   * The forecast's advisories of the week to the district's farmers (docs/decisions/0100, 0131): the crop,
   * the first high day named, when they were told, and how their messages went, as an alert's.
   */
  advisories: z.array(
    z.object({
      crop: z.string(),
      high_day: z.string(),
      told_at: isoDateTime,
      told: z.number().int(),
      delivered: z.number().int(),
      failed: z.number().int(),
      waiting: z.number().int(),
    }),
  ),
  clinic: z.object({
    visits: z.number().int(),
    findings: z.record(z.string(), z.number().int()),
  }),
  /** Follow-ups closed in the week; a re-walk with too few plants to tell is counted apart, never as "same". */
  follow_ups: z.object({
    better: z.number().int(),
    same: z.number().int(),
    worse: z.number().int(),
    too_few: z.number().int(),
  }),
  /**
   * The coming week's rust risk per crop from the latest forecast run (docs/decisions/0100): the worst level
   * and the high days; `unknown` without weather. Absent where no forecast has run.
   */
  next_risk: z
    .array(z.object({ crop: z.string(), worst: z.enum(riskLevels), high_days: z.array(z.string()) }))
    .optional(),
  review: z.object({ waiting: z.number().int(), oldest_hours: z.number().nullable() }),
  farmers: z.array(
    z.object({
      farmer_id: z.number().int(),
      username: z.string(),
      phone: z.string(),
      language: z.enum(languages),
      /** Why the farmer is listed, once per farmer: said "worse", asked for a call back, walked a field and counted more rust (not sent to an expert), or several. */
      reasons: z.array(z.enum(['worse', 'callback', 'walk'])).min(1),
      /** The latest of them. */
      at: isoDateTime,
      /** The diagnosis the farmer said "worse" about, when they did. */
      analysis_id: z.number().int().nullable(),
      actions: z.array(officerAction),
    }),
  ),
});
export type OfficerWeek = z.infer<typeof officerWeek>;

/** A walk that waits for an expert or officer before it counts (docs/decisions/0105), and why. */
export const heldWalk = z.object({
  id: z.number().int(),
  field_name: z.string(),
  crop: z.string(),
  walked_at: isoDateTime,
  plants_looked: z.number().int(),
  plants_rust: z.number().int(),
  held_for: z
    .enum(['far_field', 'far_walk'])
    .describe("far_field: the field is far from its farmer's district; far_walk: its share is far from the district's"),
});
export type HeldWalk = z.infer<typeof heldWalk>;
export const heldWalks = z.object({ results: z.array(heldWalk) });
export type HeldWalks = z.infer<typeof heldWalks>;
