import { z } from 'zod';
import { analysisCrop } from './analysis.ts';
import { isoDateTime, paginated, rowId, numberText } from './common.ts';
import {
  fieldActions,
  fieldSteps,
  growthStages,
  walkComparisons,
  WALK_MAX_PLANTS_PER_STOP,
  WALK_MAX_STOPS,
} from './field-basics.ts';
import { districtCode } from './outbreak.ts';
// The paths and the name's length without zod, for the phone's screens (fields-paths.ts).
import { FIELD_NAME_MAX } from './fields-paths.ts';
export { FIELD_NAME_MAX, fieldsApi } from './fields-paths.ts';

// A farmer's fields and their scouting walks (docs/decisions/0078). A field is the farmer's unit:
// every analysis, follow-up, walk and clinic visit belongs to one.

/** A field of more than this many acres is a typing slip on a smallholder's app. */
export const FIELD_MAX_ACRES = 10_000;
/** A planting date this far back is no longer this season's crop. */
export const PLANTED_MAX_DAYS_AGO = 366;
/** A walk recorded offline may be synced this long after it was made. */
export const WALK_MAX_AGE_DAYS = 30;
/**
 * A rust answer of a field walked this many days before the photo (or any time after it) does not ask for a
 * walk: the walk's counts say how much of the field has rust, which one leaf cannot (`walk_asked`).
 */
export const WALK_RECENT_DAYS = 7;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const empty = (v: unknown) => (v === '' ? undefined : v);

export const fieldName = z
  .string({ error: 'Give the field a name' })
  .trim()
  .min(1, 'Give the field a name')
  .max(FIELD_NAME_MAX, `A field's name must be at most ${FIELD_NAME_MAX} characters`);

/** A calendar date `YYYY-MM-DD` that exists (the server checks it is not in the future). */
export const plantingDate = z
  .string({ error: 'Give the planting date as a date' })
  .regex(ISO_DATE, 'Give the planting date as a date')
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: 'Give the planting date as a date',
    },
  );

/** Where the field is: within Uganda and Kenya's box (a point outside is a slip of the map). */
export const fieldLocation = z.object({
  lat: z.number().min(-5, 'The place must be in Uganda or Kenya').max(5.5, 'The place must be in Uganda or Kenya'),
  lng: z.number().min(29, 'The place must be in Uganda or Kenya').max(42, 'The place must be in Uganda or Kenya'),
});
export type FieldLocation = z.infer<typeof fieldLocation>;

export const fieldSize = numberText(
  z
    .number({ error: 'Give the size in acres' })
    .positive('Give the size in acres, more than 0')
    .max(FIELD_MAX_ACRES, `Give the size in acres, at most ${FIELD_MAX_ACRES}`),
  'decimal',
);

/** A new field. Without a district, the farmer's own is used (the server refuses when there is none). */
export const fieldInput = z.object({
  name: fieldName,
  crop: analysisCrop,
  size_acres: z.preprocess(empty, fieldSize.nullable().optional()),
  district: z.preprocess(empty, districtCode.optional()),
  planted_on: z.preprocess(empty, plantingDate.nullable().optional()),
  location: fieldLocation.nullable().optional(),
});
export type FieldInput = z.input<typeof fieldInput>;

/** A change to a field: any of its facts (null clears an optional one). */
export const fieldPatch = fieldInput.partial();
export type FieldPatch = z.input<typeof fieldPatch>;

/** One stop of a walk: plants looked at, and how many of them have rust on any leaf. */
export const walkStop = z
  .object({
    looked: z
      .number({ error: 'Count the plants you looked at' })
      .int('Count the plants you looked at')
      .min(0, 'Count the plants you looked at')
      .max(WALK_MAX_PLANTS_PER_STOP, `Count at most ${WALK_MAX_PLANTS_PER_STOP} plants at one stop`),
    rust: z
      .number({ error: 'Count the plants with rust' })
      .int('Count the plants with rust')
      .min(0, 'Count the plants with rust'),
    /** A leaf photographed at this stop (an analysis of the caller, diagnosed as any photo is). */
    analysis_id: rowId.json('analysis_id', 'Choose one of your photos').optional(),
  })
  .refine((s) => s.rust <= s.looked, {
    message: 'Plants with rust cannot be more than the plants looked at',
    path: ['rust'],
  });
export type WalkStop = z.infer<typeof walkStop>;

export const walkInput = z
  .object({
    stops: z
      .array(walkStop)
      .min(1, 'Count at least one stop')
      .max(WALK_MAX_STOPS, `A walk has at most ${WALK_MAX_STOPS} stops`),
    /** When the walk was made (a walk counted offline is sent later); now when left out. */
    walked_at: z.iso
      .datetime({ offset: true, error: "The walk's date must be a date and time, such as 2026-11-28T09:30:00Z" })
      .optional(),
    /** The stage the farmer sees, which wins over the one worked out from the planting date. */
    growth_stage: z.enum(growthStages, { error: 'Choose the growth stage' }).optional(),
    /** Counted on the phone without a connection and sent when it came back (channel `offline`). */
    offline: z.boolean({ error: 'offline must be true or false' }).optional(),
  })
  .refine((w) => w.stops.some((s) => s.looked > 0), {
    message: 'Look at one plant at least',
    path: ['stops'],
  });
export type WalkInput = z.input<typeof walkInput>;

export const walkChannels = ['web', 'offline', 'ussd', 'sms', 'clinic'] as const;
export type WalkChannel = (typeof walkChannels)[number];

export const incidence = z.object({
  share: z.number().min(0).max(1).describe('Share of plants with rust'),
  low: z.number().min(0).max(1).describe('Its 95 % interval for that many plants (Wilson), low end'),
  high: z.number().min(0).max(1).describe('High end'),
});

export const fieldAdvice = z.object({
  rule: z.string().describe('The rule that gave this advice (field-rules.ts)'),
  version: z.string().describe("The rules' version (FIELD_RULES_VERSION in field-rules.ts)"),
  action: z.enum(fieldActions).describe('The main next step'),
  steps: z.array(z.enum(fieldSteps)).describe('What to do, most important first (texts in the catalogues)'),
  walk_again_days: z.number().int().nullable().describe('When to walk the field again; null when not this season'),
  sources: z.array(z.object({ title: z.string(), url: z.string() })),
});
export type FieldAdviceReply = z.infer<typeof fieldAdvice>;

export const walkComparison = z.object({
  walk_id: z.number().int().describe('The walk before this one'),
  walked_at: isoDateTime,
  plants_looked: z.number().int(),
  plants_rust: z.number().int(),
  outcome: z
    .enum(walkComparisons)
    .describe('`too_few_plants`: the counts cannot tell a change from chance; count more plants'),
});

export const walk = z.object({
  id: z.number().int(),
  field_id: z.number().int(),
  walked_at: isoDateTime,
  channel: z.enum(walkChannels),
  recorded_by_expert: z.boolean().describe('Counted by an expert at a plant clinic visit'),
  stops: z.array(walkStop),
  plants_looked: z.number().int(),
  plants_rust: z.number().int(),
  incidence: incidence.nullable(),
  crop: analysisCrop,
  weeks_since_planting: z.number().int().nullable(),
  growth_stage: z.enum(growthStages).nullable(),
  stage_said: z.boolean().describe('The stage was said at the walk, not worked out from the planting date'),
  advice: fieldAdvice,
  compared: walkComparison.nullable().describe('Against the field’s walk before it; null for a first walk'),
  sent_to_expert: z
    .boolean()
    .optional()
    .describe(
      'A worse walk with a leaf photo at a stop: that photo went to the experts’ queue (without one, the officers’ week lists it)',
    ),
});
export type Walk = z.infer<typeof walk>;
export const walkList = paginated(walk);
export type WalkList = z.infer<typeof walkList>;

export const field = z.object({
  id: z.number().int(),
  number: z.number().int().describe('The field’s number on a basic phone (USSD, SMS): 1, 2, …'),
  name: z.string(),
  crop: analysisCrop,
  size_acres: z.number().nullable(),
  district: z.string().nullable(),
  planted_on: z.string().nullable(),
  location: fieldLocation.nullable(),
  created_at: isoDateTime,
  weeks_since_planting: z.number().int().nullable(),
  growth_stage: z.enum(growthStages).nullable(),
  last_walk: walk.nullable(),
  remind_at: isoDateTime.nullable().describe('When Kutu will ask for the next walk; null when it will not'),
  analyses: z.number().int().describe('Photos diagnosed in this field'),
  retired_at: isoDateTime
    .nullable()
    .optional()
    .describe('When the farmer retired the field (DELETE): it keeps its history and leaves the lists'),
});
export type Field = z.infer<typeof field>;
export const fieldList = paginated(field);
export type FieldList = z.infer<typeof fieldList>;

/** A field as a result names it. */
export const fieldRef = z.object({ id: z.number().int(), name: z.string() });
export type FieldRef = z.infer<typeof fieldRef>;
