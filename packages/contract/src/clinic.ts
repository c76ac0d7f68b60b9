import { z } from 'zod';
import { analysisCrop, analysisResult, severityBand } from './analysis.ts';
import { e164 } from './auth.ts';
import { isoDateTime, paginated, pageQuery, rowId, numberText } from './common.ts';
import { languages } from './enums.ts';
import { growthStages, WALK_MAX_PLANTS } from './field-basics.ts';
import { fieldName, fieldRef, plantingDate, walk } from './fields.ts';
import { districtCode } from './outbreak.ts';
import { reviewVerdict } from './review.ts';

/**
 * A plant clinic visit (docs/decisions/0053): an approved expert records a diagnosis for a farmer who
 * came without a smartphone. The photos travel as multipart files beside these fields.
 */
/** Photos per visit: each is diagnosed and becomes one analysis of the farmer. */
export const CLINIC_MAX_PHOTOS = 3;

const empty = (v: unknown) => (v === '' ? undefined : v);
const text = (max: number, label: string) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).optional().default('');

export const growthStage = z.enum(growthStages, { error: 'Choose the growth stage' });

const share = 'Give the share of the field affected, 0 to 100 %';
const looked = `Give the plants looked at, 1 to ${WALK_MAX_PLANTS}`;
const rust = 'Give the plants with rust, no more than the plants looked at';
const count = (message: string, min: number) =>
  z.preprocess(
    empty,
    numberText(z.number({ error: message }).int(message).min(min, message).max(WALK_MAX_PLANTS, message).optional()),
  );

/** What the form sends (text fields of the multipart body; the web form checks the same schema). */
export const clinicVisitFields = z
  .object({
    phone_number: e164,
    crop: analysisCrop,
    variety: text(80, 'Variety'),
    growth_stage: growthStage,
    /** The expert's estimate of the share of the field affected; optional once the plants are counted. */
    share_affected: z.preprocess(
      empty,
      numberText(z.number({ error: share }).int(share).min(0, share).max(100, share).optional()),
    ),
    /**
     * The visit's field (docs/decisions/0078): one of the farmer's fields of the visit's crop (`field_id`), or a
     * new one (`field_name`, `planted_on`); neither: the farmer's field of the crop, made when there is none.
     */
    field_id: z.preprocess(empty, rowId('field_id', "Choose one of the farmer's fields").optional()),
    field_name: z.preprocess(empty, fieldName.optional()),
    planted_on: z.preprocess(empty, plantingDate.optional()),
    /** The walk the expert counted (or the farmer's count): plants looked at and plants with rust, in all. */
    plants_looked: count(looked, 1),
    plants_rust: count(rust, 0),
    symptoms: text(500, 'Symptoms'),
    /** Only for a number without an account: the new phone-only farmer's details and consent. */
    farmer_name: z.preprocess(
      empty,
      z
        .string()
        .trim()
        .min(2, "Enter the farmer's name")
        .max(80, "The farmer's name must be at most 80 characters")
        .optional(),
    ),
    district: z.preprocess(empty, districtCode.optional()),
    language: z.preprocess(empty, z.enum(languages, { error: 'Choose a language' }).optional()),
    consent: z
      .preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean())
      .optional()
      .default(false),
    /** The new farmer's free choices, asked with the consent: SMS from Kutu, photos training the model. */
    consent_sms: z
      .preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean())
      .optional()
      .default(false),
    consent_training: z
      .preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean())
      .optional()
      .default(false),
  })
  .strip()
  .refine((v) => v.share_affected !== undefined || v.plants_looked !== undefined, {
    message: 'Give the share of the field affected, or count the plants',
    path: ['share_affected'],
  })
  .refine((v) => (v.plants_looked === undefined) === (v.plants_rust === undefined), {
    message: 'Give both counts: the plants looked at and the plants with rust',
    path: ['plants_rust'],
  })
  .refine((v) => v.plants_rust === undefined || v.plants_looked === undefined || v.plants_rust <= v.plants_looked, {
    message: rust,
    path: ['plants_rust'],
  })
  .refine((v) => !(v.field_id !== undefined && v.field_name !== undefined), {
    message: "Choose one of the farmer's fields or name a new one, not both",
    path: ['field_name'],
  });
export type ClinicVisitFields = z.input<typeof clinicVisitFields>;

/** The expert's answer on Kutu's diagnosis: confirmed or corrected. It is the verdict of every photo. */
export const clinicVerdictBody = z
  .object({
    verdict: reviewVerdict,
    severity: severityBand.optional(),
    recommendation: z.string().trim().max(320, 'The recommendation must be at most 320 characters').optional(),
  })
  .refine((b) => !b.severity || b.verdict === 'common_rust', {
    message: 'Severity goes with a rust verdict only',
    path: ['severity'],
  });
export type ClinicVerdictBody = z.input<typeof clinicVerdictBody>;

export const clinicVisit = z.object({
  id: z.number().int(),
  created_at: isoDateTime,
  farmer: z.object({
    id: z.number().int(),
    name: z.string(),
    phone: z.string(),
    district: z.string().nullable(),
    language: z.enum(languages),
    /** Made at this visit (a phone-only account, the farmer's consent recorded). */
    created_here: z.boolean(),
  }),
  crop: analysisCrop,
  variety: z.string(),
  growth_stage: growthStage,
  share_affected: z.number().int().nullable(),
  symptoms: z.string(),
  /** The farmer's field the visit is about; null only once it was erased. */
  field: fieldRef.nullable(),
  /** The walk counted at the visit (channel `clinic`), with its advice; null when no plants were counted. */
  walk: walk.nullable(),
  /** Kutu's diagnosis of each photo. */
  analyses: z.array(analysisResult),
  verdict: reviewVerdict.nullable(),
  severity: severityBand.nullable(),
  recommendation: z.string().nullable(),
  decided_at: isoDateTime.nullable(),
  /** When the result SMS was handed to the delivery outbox (sent within seconds, retried); null before the verdict. */
  result_sms_at: isoDateTime.nullable(),
  /** When Kutu will ask the farmer by SMS how the field is (after a rust verdict). */
  follow_up_at: isoDateTime.nullable(),
});
export type ClinicVisit = z.infer<typeof clinicVisit>;

/** One row of the expert's clinic records (the list and the CSV hold the same fields). */
export const clinicRecord = z.object({
  id: z.number().int(),
  created_at: isoDateTime,
  farmer_name: z.string(),
  farmer_phone: z.string(),
  district: z.string().nullable(),
  crop: analysisCrop,
  field: z.string().nullable().describe("The field's name"),
  variety: z.string(),
  growth_stage: growthStage,
  share_affected: z.number().int().nullable(),
  plants_looked: z.number().int().nullable(),
  plants_rust: z.number().int().nullable(),
  symptoms: z.string(),
  kutu_diagnosis: z.string(),
  verdict: reviewVerdict.nullable(),
  recommendation: z.string().nullable(),
  expert: z.string(),
});
export type ClinicRecord = z.infer<typeof clinicRecord>;
export const clinicRecordPage = paginated(clinicRecord);
export type ClinicRecordPage = z.infer<typeof clinicRecordPage>;

/** The farmer's fields the visit form offers (`clinicApi.farmerFields`): none for a number without a farmer. */
export const clinicFarmerFieldsQuery = pageQuery.extend({ phone_number: e164 });
export type ClinicFarmerFieldsQuery = z.infer<typeof clinicFarmerFieldsQuery>;
export const clinicFieldChoice = z.object({
  id: z.number().int(),
  number: z.number().int(),
  name: z.string(),
  crop: analysisCrop,
  planted_on: z.string().nullable(),
});
export type ClinicFieldChoice = z.infer<typeof clinicFieldChoice>;
export const clinicFieldChoicePage = paginated(clinicFieldChoice);
export type ClinicFieldChoicePage = z.infer<typeof clinicFieldChoicePage>;
