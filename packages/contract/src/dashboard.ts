import { z } from 'zod';
import { role } from './common.ts';

export { dashboardApi } from './paths.ts';

export const dashboardQuery = z.object({
  tz: z
    .string()
    .max(64)
    .optional()
    .describe('IANA time zone that decides month boundaries for the monthly series; default Africa/Kampala'),
});
export type DashboardQuery = z.input<typeof dashboardQuery>;

const count = (farmer: string, expert: string) =>
  z.number().int().min(0).describe(`Farmer: ${farmer}. Expert: ${expert}.`);

const ownAnalyses = 'own analyses';
const allAnalyses = 'analyses by all farmers';
const classNote = '(confident diagnoses only; unsure results and photos that show no leaf are left out)';

/** The ten statistics of spec point 3; each means something for the caller's role. */
export const dashboardStats = z.object({
  imagesAnalyzedRust: count(
    `${ownAnalyses} diagnosed Common Rust ${classNote}`,
    `${allAnalyses} diagnosed Common Rust ${classNote}`,
  ),
  imagesAnalyzedHealthy: count(
    `${ownAnalyses} diagnosed Healthy ${classNote}`,
    `${allAnalyses} diagnosed Healthy ${classNote}`,
  ),
  imagesAnalyzedOtherDiseases: count(
    `${ownAnalyses} diagnosed another disease ${classNote}`,
    `${allAnalyses} diagnosed another disease ${classNote}`,
  ),
  totalImagesAnalyzed: count(
    'every own analysis, unsure and not-a-leaf results included',
    'every analysis by all farmers, unsure and not-a-leaf results included',
  ),
  imagesTrainingRust: count(
    'own analysed photos that experts added to the training data labelled Common Rust (removed samples excluded)',
    'training images the expert uploaded labelled Common Rust (removed samples excluded)',
  ),
  imagesTrainingHealthy: count(
    'own analysed photos added to the training data labelled Healthy',
    'training images the expert uploaded labelled Healthy',
  ),
  imagesTrainingOtherDiseases: count(
    'own analysed photos added to the training data labelled Other Disease',
    'training images the expert uploaded labelled Other Disease',
  ),
  trainingSessions: count(
    'retraining sessions that succeeded on the platform (times the model the farmer uses was improved)',
    'retraining sessions the expert started, whatever their result',
  ),
  communityPostsRust: count(
    'own community posts about rust or another disease (disease type other than none), any moderation state',
    'posts about rust or another disease that the expert moderated (flagged, unflagged or approved)',
  ),
  bookingsConfirmed: count('own bookings an expert approved', "bookings on the expert's slots that they approved"),
});
export type DashboardStats = z.infer<typeof dashboardStats>;

const classCounts = {
  common_rust: z.number().int().min(0),
  healthy: z.number().int().min(0),
  other_disease: z.number().int().min(0),
};

export const dashboardOutcomes = z
  .object({
    ...classCounts,
    unclear: z.number().int().min(0).describe('Unsure results and photos that show no leaf'),
  })
  .describe('Analysis outcomes over the same analyses as the image statistics (all time)');
export type DashboardOutcomes = z.infer<typeof dashboardOutcomes>;

export const dashboardMonth = z.object({
  month: z
    .string()
    .describe("Calendar month in the requested time zone, YYYY-MM (the app writes its name in the reader's language)"),
  ...classCounts,
});
export type DashboardMonth = z.infer<typeof dashboardMonth>;

export const dashboardReply = z.object({
  role,
  stats: dashboardStats,
  outcomes: dashboardOutcomes,
  monthly: z
    .array(dashboardMonth)
    .describe('The last six calendar months, oldest first, the current month last; confident diagnoses per class'),
  time_zone: z.string(),
  farmer: z
    .object({
      analyses: z.number().int().describe('Own analyses'),
      questions_asked: z.number().int().describe('Own analyses asked about to an expert'),
      questions_answered: z.number().int().describe('Of those, answered by an expert'),
      posts: z.number().int().describe('Own community posts, any state'),
      posts_answered: z.number().int().describe('Own posts with at least one expert answer'),
      bookings_pending: z.number().int(),
      bookings_approved: z.number().int(),
    })
    .nullable()
    .describe("The farmer's own activity; null for experts"),
});
export type DashboardReply = z.infer<typeof dashboardReply>;
