export const cropTypes = ['MAIZE', 'WHEAT', 'RICE', 'BEANS'] as const;
export type CropType = (typeof cropTypes)[number];

export const diseaseTypes = ['common_rust', 'leaf_blast', 'gray_leaf_spot', 'none'] as const;
export type DiseaseType = (typeof diseaseTypes)[number];

export const urgencyLevels = ['low', 'medium', 'high'] as const;
export type UrgencyLevel = (typeof urgencyLevels)[number];

export const bookingStatuses = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

export const rustClasses = ['common_rust', 'healthy', 'other_disease'] as const;
export type RustClass = (typeof rustClasses)[number];

export const notificationTypes = [
  'booking_approved',
  'booking_rejected',
  'booking_requested',
  'booking_cancelled',
  'booking_reminder',
  'training_completed',
  'image_analysis',
  'post_moderated',
  'comment_moderated',
  'expert_review',
  /** To experts: posts or comments wait for moderation (one unread at a time). */
  'moderation_pending',
  /** To an expert applicant: an administrator approved or refused the account (docs/decisions/0027). */
  'expert_approved',
  'expert_refused',
  /** To farmers and experts of a district: rust is confirmed there or next door (docs/decisions/0032). */
  'outbreak_alert',
  /** To a farmer 7 days after advice to treat: photograph the same field again (docs/decisions/0044). */
  'follow_up_reminder',
  /** To a post's author: an expert answered the post (it opens the answer). */
  'community_answer',
  /** To an extension officer applicant: an administrator approved or refused the account. */
  'officer_approved',
  'officer_refused',
  /** To an extension officer, each Monday: last week in their district (the report is in the app). */
  'officer_weekly',
  /** To farmers with a field of the crop, and the district's experts and officers: rust weather this week (docs/decisions/0100). */
  'rust_advisory',
  /** To administrators and national officers, each Monday: the national rust bulletin is ready (docs/decisions/0122). */
  'rust_bulletin',
] as const;
export type NotificationType = (typeof notificationTypes)[number];

export const idTypes = ['NATIONAL_ID', 'PASSPORT'] as const;
export const genders = ['MALE', 'FEMALE'] as const;

/** The languages the server writes in (errors, emails, SMS, notifications); English is the fallback. */
export const languages = ['en', 'sw', 'lg'] as const;
export type Language = (typeof languages)[number];
/** Each language's name in itself, as a language menu shows it whatever the language around it. */
export const nativeNames: Record<Language, string> = { en: 'English', sw: 'Kiswahili', lg: 'Luganda' };

/**
 * How a moment is written everywhere (screens, emails, SMS): "2 Mar 2026, 11:00", on the 24-hour clock
 * people read in East Africa. Each place adds its zone (and the server the weekday).
 */
export const dateTimeParts = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
} as const satisfies Intl.DateTimeFormatOptions;

/** The crop a photo shows, as the farmer says it on Upload Image. */
export const analysisCrops = ['maize', 'beans', 'other'] as const;

/**
 * The crop a farmer most likely photographs, from the profile's crops: maize or beans (maize first), `other`
 * for another crop, null when the profile names none. The web app's upload starts on it; the server files a
 * photo sent without a crop or a field under it.
 */
export function profileCrop(cropTypes: readonly string[] | undefined): (typeof analysisCrops)[number] | null {
  const upper = (cropTypes ?? []).map((c) => c.toUpperCase());
  if (upper.includes('MAIZE')) return 'maize';
  if (upper.includes('BEANS')) return 'beans';
  return upper.length > 0 ? 'other' : null;
}

/** The largest photo an upload may send (spec point 9); here, zod-free, for the screens that only check size. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

// Limits, labels and lists the web app imports from here (`@kutu/contract/enums`): this module has no
// zod, so a screen that only shows them does not download the schemas (docs/decisions/0016).

// Community posts
export const POST_TITLE_MIN = 5;
export const POST_TITLE_MAX = 150;
export const POST_CONTENT_MIN = 10;
export const POST_CONTENT_MAX = 5000;
export const COMMENT_MAX = 2000;
export const MODERATION_REASON_MAX = 500;

// Consultations
/** How a consultation happens. */
export const meetingModes = ['phone', 'farm_visit', 'video'] as const;
export type MeetingMode = (typeof meetingModes)[number];
/** Slot lengths an expert can pick for a weekly availability, in minutes. */
export const slotLengths = [15, 20, 30, 45, 60, 90, 120] as const;
/** Weekly availability makes slots for this many days ahead, topped up every day (docs/decisions/0019). */
export const AVAILABILITY_WINDOW_DAYS = 28;
export const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

// Expert review
/** An expert's decision: a crop class (confirms or corrects the model), or no crop class at all. */
export const reviewVerdicts = ['common_rust', 'healthy', 'other_disease', 'not_leaf', 'cannot_tell'] as const;
/** What the model answered, in the same terms as a verdict (unsure counts separately). */
/** How much of the leaf shows rust (docs/decisions/0045): the model's estimate and an expert's rating. */
export const severityBands = ['low', 'moderate', 'severe'] as const;
export type SeverityBandName = (typeof severityBands)[number];
/**
 * When the model's severity stops being called an estimate (docs/decisions/0045): once experts
 * rated at least `minRated` confident rust answers and their band agreed with the model's on at least
 * `minAgreement` of them. The one place this rule lives; the server applies it to the field figures,
 * the field-accuracy page explains it.
 */
export const SEVERITY_TRUST = { minRated: 30, minAgreement: 0.8 } as const;

export function severityIsEstimate(rated: number, agreed: number): boolean {
  return rated < SEVERITY_TRUST.minRated || agreed / rated < SEVERITY_TRUST.minAgreement;
}

export const modelAnswers = ['common_rust', 'healthy', 'other_disease', 'unsure', 'not_leaf'] as const;
export type ModelAnswer = (typeof modelAnswers)[number];

// Model training
/** Images one training upload may carry. */
export const TRAINING_MAX_FILES = 20;
export const trainingLabels = rustClasses;
export type TrainingLabel = (typeof trainingLabels)[number];
export const trainingLabelNames: Record<TrainingLabel, string> = {
  common_rust: 'Common Rust',
  healthy: 'Healthy',
  other_disease: 'Other Diseases',
};
/** The spec's messages (points 5 and 8). */
export const trainingMessages = {
  noImage: 'Please upload a valid image for training.',
  noLabel: 'Please select a label for training.',
  submitted: 'Training data submitted successfully',
  failed: 'Failed to submit training data',
  alreadyRunning: 'A retraining is already running',
} as const;

// Analysis and education resources
/** What a resource is about: one of the three classes, or how to take a photo the model can read. */
export const resourceTopics = [...rustClasses, 'photo_tips'] as const;
/** The languages content (advice, resources) is written in: English, Kiswahili, Luganda (docs/decisions/0023). */
export const contentLanguages = languages;

/** What an erasure counts (erased or kept without the person), in the order an administrator reads them. */
export const erasureCountKeys = [
  'analyses',
  'photos',
  'posts_erased',
  'posts_kept_anonymised',
  'comments_kept_anonymised',
  'training_samples_erased',
  'training_samples_kept_anonymised',
  'clinic_visits_kept_anonymised',
  'officer_notes_kept_anonymised',
  'voice_clips_erased',
  'bookings_cancelled',
] as const;
export type ErasureCounts = Record<(typeof erasureCountKeys)[number], number>;
