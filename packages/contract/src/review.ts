import { z } from 'zod';
import { officerAction } from './extension.ts';
import { isoDateTime, pageQuery, paginated } from './common.ts';
import { analysisCrop, analysisResult, severityBand } from './analysis.ts';
import { reviewVerdicts, modelAnswers } from './enums.ts';
import { districtCode } from './outbreak.ts';

export { reviewApi } from './paths.ts';

/** How long a claim keeps other experts off an item. */
export const CLAIM_MINUTES = 10;

export const reviewVerdict = z.enum(reviewVerdicts, {
  error: 'Choose a verdict: common_rust, healthy, other_disease, not_leaf or cannot_tell',
});
export type ReviewVerdict = z.infer<typeof reviewVerdict>;
/** Verdicts that train a crop class (the others never become training samples). */
export const trainingVerdicts = ['common_rust', 'healthy', 'other_disease'] as const;

export const reviewQueueQuery = pageQuery.extend({
  crop: analysisCrop.optional().describe('Only photos the farmer said show this crop'),
  outcome: z
    .enum(modelAnswers, { error: 'outcome must be common_rust, healthy, other_disease, unsure or not_leaf' })
    .optional()
    .describe("The model's answer: a confident class, `unsure`, or `not_leaf`"),
  model_version: z.string().trim().min(1).max(100).optional(),
  district: districtCode.optional().describe('Only photos of farmers in this district or county (`UG-411`, `KE-01`)'),
  from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD)' }).optional().describe('Analysed on or after (UTC)'),
  to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD)' }).optional().describe('Analysed on or before (UTC)'),
});
export type ReviewQueueQuery = z.input<typeof reviewQueueQuery>;

const person = z.object({ id: z.number().int(), username: z.string() });

/** The review side of one analysis, as the owner farmer and experts see it. */
export const expertReview = z.object({
  analysis_id: z.number().int(),
  question: z.string().nullable(),
  asked_at: isoDateTime.nullable(),
  status: z.enum(['waiting', 'reviewed']),
  verdict: reviewVerdict.nullable(),
  note: z.string().nullable(),
  /** The expert's own rating of how much of the leaf shows rust (rust verdicts only; null when not given). */
  severity: severityBand.nullable(),
  reviewer: person.nullable(),
  reviewed_at: isoDateTime.nullable(),
  revised_at: isoDateTime.nullable(),
  /** Whether the verdict agrees with the model's answer (null until reviewed, or when it cannot tell). */
  agrees: z.boolean().nullable(),
  /** The training sample the verdict created (experts only; null for farmers). */
  sample_id: z.number().int().nullable(),
  community_post_id: z.number().int().nullable(),
  /** Experts only: what extension officers did about this farmer (calls, visits, with their notes), newest first. */
  officer_notes: z.array(officerAction).optional(),
});
export type ExpertReview = z.infer<typeof expertReview>;

export const reviewQueueItem = z.object({
  analysis: analysisResult,
  farmer: person,
  question: z.string().nullable(),
  asked_at: isoDateTime.nullable(),
  /** Why Kutu itself put the photo here (a follow-up that looked worse), in the reader's language. */
  reason: z.string().nullable().optional(),
  /** Top-1 minus top-2 class probability: small means the model nearly chose another class. */
  margin: z.number().nullable(),
  claimed_by: person.nullable(),
  claimed_until: isoDateTime.nullable(),
});
export type ReviewQueueItem = z.infer<typeof reviewQueueItem>;
export const reviewQueuePage = paginated(reviewQueueItem);
export type ReviewQueuePage = z.infer<typeof reviewQueuePage>;

export const reviewClaim = z.object({
  analysis_id: z.number().int(),
  claimed_by: person,
  claimed_until: isoDateTime,
});
export type ReviewClaim = z.infer<typeof reviewClaim>;

export const reviewDecisionBody = z
  .object({
    verdict: reviewVerdict,
    note: z.string().trim().max(1000, 'The note must be at most 1000 characters').optional(),
    /** The expert's own severity (how much of the leaf shows rust); only with a common_rust verdict. */
    severity: severityBand.optional(),
  })
  .refine((b) => !b.severity || b.verdict === 'common_rust', {
    message: 'Severity goes with a rust verdict only',
    path: ['severity'],
  });
export type ReviewDecisionBody = z.input<typeof reviewDecisionBody>;

export const askExpertBody = z.object({
  question: z
    .string({ error: 'Write a short question for the expert' })
    .trim()
    .min(3, 'Write a short question for the expert')
    .max(500, 'The question must be at most 500 characters'),
});
export type AskExpertBody = z.input<typeof askExpertBody>;

export const myReviewItem = z.object({ analysis: analysisResult, review: expertReview });
export const myReviewPage = paginated(myReviewItem);
export type MyReviewPage = z.infer<typeof myReviewPage>;

export const reviewCommunityPostReply = z.object({ post_id: z.number().int() });

export const reviewSummary = z.object({
  role: z.enum(['farmer', 'expert']),
  /** Expert: analyses waiting for review. */
  waiting: z.number().int().nullable(),
  /** Expert: reviews they decided since Monday 00:00 East Africa Time. */
  reviewed_by_me_this_week: z.number().int().nullable(),
  /** Expert: share of their verdicts on confident model answers that agreed (null when none). */
  my_agreement_rate: z.number().nullable(),
  /** Farmer: questions asked and how many an expert answered. */
  questions_asked: z.number().int().nullable(),
  questions_answered: z.number().int().nullable(),
});
export type ReviewSummary = z.infer<typeof reviewSummary>;

/** Expert verdicts against the model's answers: matrix[model answer][verdict] = count. */
export const confusionMatrix = z.record(z.string(), z.record(z.string(), z.number().int()));

export const fieldAccuracyFigures = z.object({
  /** Analyses this version made (the unsure rate's base). */
  analyses: z.number().int(),
  reviewed: z.number().int(),
  /** Reviewed analyses where the model gave a confident class and the expert could tell. */
  confident_reviewed: z.number().int(),
  /** Share of those where the expert's verdict was the model's class (null when none). */
  agreement: z.number().nullable(),
  /** Share of this version's analyses that were unsure. */
  unsure_rate: z.number().nullable(),
  confusion: confusionMatrix,
});
export type FieldAccuracyFigures = z.infer<typeof fieldAccuracyFigures>;

/**
 * The model's severity band against the expert's, on reviewed confident rust answers where the expert said
 * rust and gave a severity (docs/decisions/0045).
 */
export const severityAgreement = z.object({
  rated: z.number().int(),
  agreed: z.number().int(),
  /** agreed ÷ rated (null when none). */
  agreement: z.number().nullable(),
  /** matrix[model band][expert band] = count. */
  confusion: confusionMatrix,
  /** Whether the result still calls the severity an estimate (SEVERITY_TRUST). */
  estimate: z.boolean(),
});
export type SeverityAgreement = z.infer<typeof severityAgreement>;

export const fieldAccuracyVersion = fieldAccuracyFigures.extend({
  model_version: z.string(),
  /** The same figures per crop the farmer named (`unknown` when not named). */
  by_crop: z.record(z.string(), fieldAccuracyFigures),
});
export type FieldAccuracyVersion = z.infer<typeof fieldAccuracyVersion>;

export const fieldAccuracyReply = z.object({
  versions: z.array(fieldAccuracyVersion),
  model_answers: z.array(z.enum(modelAnswers)),
  verdicts: z.array(reviewVerdict),
  /** Model and expert severity bands over every model version (the estimate is colour, not the network). */
  severity: severityAgreement,
});
export type FieldAccuracyReply = z.infer<typeof fieldAccuracyReply>;

const shareInterval = z.object({ share: z.number(), low: z.number(), high: z.number() });

/** Verified photos of one crop in one month (or over all months): what Kutu answered, against the experts. */
export const fieldFiguresRow = z.object({
  /** maize, beans, other, or `unknown` (no crop named). */
  crop: z.string(),
  /** `YYYY-MM` in East Africa Time when the photo was analysed; null for all months together. */
  month: z.string().nullable(),
  /** Photos an expert gave a crop class (common rust, healthy, other disease). */
  checked: z.number().int(),
  /** Each share of `checked` with its 95 % Wilson interval (null when none checked). */
  right: shareInterval.nullable(),
  confident_wrong: shareInterval.nullable(),
  unsure: shareInterval.nullable(),
});
export type FieldFiguresRow = z.infer<typeof fieldFiguresRow>;

export const fieldFiguresReply = z.object({
  /** Per crop, its months (newest first, at most `months`), then all time. */
  rows: z.array(fieldFiguresRow),
  months: z.number().int(),
});
export type FieldFiguresReply = z.infer<typeof fieldFiguresReply>;
