import { z } from 'zod';
import { analysisCrop, analysisResult, severityBand } from './analysis.ts';
import { e164 } from './auth.ts';
import { isoDateTime, paginated } from './common.ts';
import { languages } from './enums.ts';
import { growthStages } from './field-rules.ts';
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

/** What the form sends (text fields of the multipart body; the web form checks the same schema). */
export const clinicVisitFields = z
  .object({
    phone_number: e164,
    crop: analysisCrop,
    variety: text(80, 'Variety'),
    growth_stage: growthStage,
    share_affected: z.coerce
      .number({ error: 'Give the share of the field affected, 0 to 100 %' })
      .int('Give the share of the field affected, 0 to 100 %')
      .min(0, 'Give the share of the field affected, 0 to 100 %')
      .max(100, 'Give the share of the field affected, 0 to 100 %'),
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
  .strip();
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
  share_affected: z.number().int(),
  symptoms: z.string(),
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
  variety: z.string(),
  growth_stage: growthStage,
  share_affected: z.number().int(),
  symptoms: z.string(),
  kutu_diagnosis: z.string(),
  verdict: reviewVerdict.nullable(),
  recommendation: z.string().nullable(),
  expert: z.string(),
});
export type ClinicRecord = z.infer<typeof clinicRecord>;
export const clinicRecordPage = paginated(clinicRecord);
export type ClinicRecordPage = z.infer<typeof clinicRecordPage>;
