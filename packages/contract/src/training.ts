import { z } from 'zod';
import { cropTypes, trainingLabels, trainingMessages } from './enums.ts';
import { isoDateTime, pageQuery, paginated, rowId } from './common.ts';

export { trainingApi, trainingPath } from './paths.ts';

export const trainingLabel = z.enum(trainingLabels, { error: trainingMessages.noLabel });

/** The text fields of the multipart upload (the images travel beside them). */
export const trainingUploadFields = z.object({
  label: z.preprocess((v) => (v === '' ? undefined : v), trainingLabel),
  crop_type: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(cropTypes, { error: 'Choose the crop: Maize, Wheat, Rice or Beans' }).optional(),
  ),
});

export const trainingSample = z.object({
  id: z.number().int(),
  label: trainingLabel,
  crop_type: z.string().nullable(),
  uploader: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  source_analysis_id: z.number().int().nullable(),
  /** The model version that analysed the source analysis (provenance of a reviewed sample). */
  source_model_version: z.string().nullable(),
  /** Held back from training for the field check: its farmer is one of the held-back ones. */
  held_out: z.boolean(),
  /** GET with the bearer token: the stored image. */
  image_url: z.string(),
  created_at: isoDateTime,
});
export type TrainingSample = z.infer<typeof trainingSample>;

export const trainingUploadReply = z.object({
  message: z.string(),
  samples: z.array(trainingSample),
  /** A retraining that this upload started (enough new samples), if any. */
  job_id: z.number().int().nullable(),
});
export type TrainingUploadReply = z.infer<typeof trainingUploadReply>;

export const trainingSamplesQuery = pageQuery.extend({
  label: z.enum(trainingLabels, { error: 'label must be common_rust, healthy or other_disease' }).optional(),
});
export type TrainingSamplesQuery = z.input<typeof trainingSamplesQuery>;
export const trainingSamplePage = paginated(trainingSample);

export const relabelBody = z.object({ label: trainingLabel });

export const fromAnalysisBody = z.object({
  analysis_id: rowId('analysis_id', 'analysis_id is required'),
  label: trainingLabel,
});
export type FromAnalysisBody = z.input<typeof fromAnalysisBody>;

export const sampleCounts = z.object({
  common_rust: z.number().int(),
  healthy: z.number().int(),
  other_disease: z.number().int(),
  /** Samples a retraining learns from (the three counts above; held-back field photos apart). */
  total: z.number().int(),
  /** Farmers' verified photos held back from training for the field check (owner agreed, not removed). */
  held_back: z.number().int(),
  /** Samples added since the last retraining that activated a model started (failed and refused runs leave them new). */
  new_since_last_job: z.number().int(),
  /** A retraining starts by itself at this many new samples (0: never). */
  retrain_after: z.number().int(),
});
export type SampleCounts = z.infer<typeof sampleCounts>;

export const trainingJobStatuses = ['queued', 'running', 'succeeded', 'rejected', 'failed'] as const;
export type TrainingJobStatus = (typeof trainingJobStatuses)[number];

/** The numbers compared for the decision, on the fixed evaluation set. */
export const evalMetrics = z.object({
  images: z.number().int(),
  accuracy: z.number(),
  macro_f1: z.number(),
  unsure_rate: z.number().optional(),
  per_class: z.record(z.string(), z.unknown()).optional(),
  /** Accuracy per setting of the evaluation photos ('field', 'lab', 'unknown'), where known. */
  accuracy_by_setting: z.record(z.string(), z.number()).optional(),
  /** Per setting, the share of photos answered confidently (neither unsure nor refused). */
  coverage_by_setting: z.record(z.string(), z.number()).optional(),
  /** Per setting, the share of photos given a confident wrong diagnosis (the retraining gate compares 'field'). */
  confident_wrong_by_setting: z.record(z.string(), z.number()).optional(),
});
export type EvalMetrics = z.infer<typeof evalMetrics>;

/** One measure compared on the same held-back photos: each model's count and the photos where they differ. */
export const pairedMeasure = z.object({
  candidate: z.number().int(),
  active: z.number().int(),
  /** Photos where only the candidate is worse on this measure. */
  worse: z.number().int(),
  /** Photos where only the candidate is better on it. */
  better: z.number().int(),
  /** McNemar's exact one-sided p for "the candidate is worse". */
  p: z.number(),
  /** Tango's one-sided p for "worse by the margin or more" (small: shown not worse); absent before 0118. */
  p_not_worse: z.number().optional(),
});

/** `not_shown`: neither worse nor shown not worse by more than the margin (docs/decisions/0118). */
export const fieldCropOutcomes = ['too_few', 'not_shown', 'not_worse', 'worse'] as const;

/** One crop's field check: the candidate against the active model on that crop's held-back field photos. */
export const fieldCropCheck = z.object({
  /** maize, beans, … or `unknown` (no crop named). */
  crop: z.string(),
  photos: z.number().int(),
  by_class: z.record(z.string(), z.number().int()),
  right: pairedMeasure,
  confident_wrong: pairedMeasure,
  outcome: z.enum(fieldCropOutcomes),
  fewer_right: z.boolean(),
  more_confident_wrong: z.boolean(),
  /** The smallest loss of right answers, in points, these photos would reveal with 80 % power. */
  detectable_points: z.number().int().nullable(),
});
export type FieldCropCheck = z.infer<typeof fieldCropCheck>;

/** The field check of a decision (docs/decisions/0086): its settings and each crop's result. */
export const fieldCheck = z.object({
  min_photos: z.number().int(),
  alpha: z.number(),
  /** Non-inferiority margin, a share: absent in checks made before docs/decisions/0118. */
  margin: z.number().optional(),
  hold_out_every: z.number().int(),
  /** The fixed evaluation set's field photos among each crop's (the rest are farmers' held-back photos). */
  eval_set_photos: z.record(z.string(), z.number().int()),
  crops: z.array(fieldCropCheck),
});
export type FieldCheck = z.infer<typeof fieldCheck>;

export const trainingDecision = z.object({
  accepted: z.boolean(),
  rule: z.string(),
  reason: z.string(),
  candidate: evalMetrics,
  active: evalMetrics.nullable(),
  active_version: z.string().nullable(),
  eval_set: z.string(),
  /** On the held-back field photos of each crop; absent in decisions made before the field check. */
  field_check: fieldCheck.optional(),
});
export type TrainingDecision = z.infer<typeof trainingDecision>;

export const trainingJob = z.object({
  id: z.number().int(),
  trigger: z.enum(['manual', 'auto']),
  status: z.enum(trainingJobStatuses),
  stage: z.string().nullable(),
  epoch: z.number().int().nullable(),
  epochs: z.number().int().nullable(),
  progress: z.record(z.string(), z.unknown()).nullable(),
  sample_count: z.number().int().nullable(),
  candidate_version: z.string().nullable(),
  result: trainingDecision.nullable(),
  error: z.string().nullable(),
  started_by: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  created_at: isoDateTime,
  started_at: isoDateTime.nullable(),
  finished_at: isoDateTime.nullable(),
  /** Seconds from start to finish, or to now while it runs. */
  elapsed_seconds: z.number().nullable(),
});
export type TrainingJob = z.infer<typeof trainingJob>;
export const trainingJobPage = paginated(trainingJob);

export const modelVersion = z.object({
  id: z.number().int(),
  version: z.string(),
  is_active: z.boolean(),
  metrics: z.record(z.string(), z.unknown()),
  decision: trainingDecision.nullable(),
  trained_by: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  sample_count: z.number().int(),
  job_id: z.number().int().nullable(),
  created_at: isoDateTime,
  activated_at: isoDateTime.nullable(),
});
export type ModelVersion = z.infer<typeof modelVersion>;

/** Activating a version the gate left to a person: the administrator confirms its field figures (0118). */
export const activateVersionBody = z.object({ confirm_field_figures: z.boolean().optional() });
export const modelVersionPage = paginated(modelVersion);

/** The held-back field photos as they stand, and the last field check (experts and administrators). */
export const fieldSetReply = z.object({
  min_photos: z.number().int(),
  hold_out_every: z.number().int(),
  alpha: z.number(),
  crops: z.array(
    z.object({
      crop: z.string(),
      photos: z.number().int(),
      by_class: z.record(z.string(), z.number().int()),
      /** At least `min_photos`: the field check judges this crop. */
      enough: z.boolean(),
    }),
  ),
  /**
   * Each crop's unsure cut learnt from the held-back photos the served model answered (docs/decisions/0119):
   * the cut (null: too few photos, the card's cut stands), the 95 % upper bound of the confidently wrong
   * share at it, how many photos it rests on, and which cut answers the crop's photos: the learnt one where
   * it is stricter than the card's, since its newest verified photo (or the version's activation, if later).
   */
  cut: z
    .object({
      max_wrong: z.number(),
      confidence: z.number(),
      model_version: z.string(),
      crops: z.array(
        z.object({
          crop: z.string(),
          photos: z.number().int(),
          card_cut: z.number().nullable(),
          cut: z.number().nullable(),
          bound: z.number().nullable(),
          applied: z.enum(['card', 'field']),
          applied_since: isoDateTime.nullable(),
        }),
      ),
    })
    .optional(),
  /** The latest candidate's field check, with its version and outcome (null before any). */
  last_check: z
    .object({
      /** The version's id, to activate it (an administrator, when the gate left it to a person). */
      id: z.number().int(),
      version: z.string(),
      is_active: z.boolean(),
      accepted: z.boolean(),
      created_at: isoDateTime,
      field_check: fieldCheck,
    })
    .nullable(),
});
export type FieldSetReply = z.infer<typeof fieldSetReply>;
