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
] as const;
export type NotificationType = (typeof notificationTypes)[number];

export const idTypes = ['NATIONAL_ID', 'PASSPORT'] as const;
export const genders = ['MALE', 'FEMALE'] as const;

/** The languages the server writes in (errors, emails, SMS, notifications); English is the fallback. */
export const languages = ['en', 'sw', 'lg'] as const;
export type Language = (typeof languages)[number];

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

/** The largest photo an upload may send (spec point 9); here, zod-free, for the screens that only check size. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
