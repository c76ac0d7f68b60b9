import { z } from 'zod';
import { isoDateTime, pageQuery, paginated, rowId, numberText } from './common.ts';
import { analysisCrops, bookingStatuses, type MeetingMode, meetingModes, rustClasses, slotLengths } from './enums.ts';

export { consultationsApi } from './paths.ts';

/** Slot times without an offset are read in East Africa Time (UTC+3, no daylight saving). */
export const EAST_AFRICA_TIME_ZONE = 'Africa/Kampala';
const EAT_OFFSET_MINUTES = 180;

/** Bounds on a slot: long enough to meet, short enough to be a working day, not too far ahead. */
export const slotLimits = {
  minMinutes: 15,
  maxHours: 12,
  maxDaysAhead: 366,
} as const;

const wireDateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Reads the spec's "date time-with-seconds" form ('2026-12-01 09:00:00', East Africa Time unless it
 * carries an offset) and ISO 8601 ('2026-12-01T06:00:00Z', '2026-12-01T09:00+03:00'). Returns null for
 * anything else, including impossible dates such as 31 April.
 */
export function parseWireDateTime(input: string): Date | null {
  const m = wireDateTimePattern.exec(input.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '0', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  let offsetMinutes = EAT_OFFSET_MINUTES;
  if (zone) {
    if (zone.toUpperCase() === 'Z') offsetMinutes = 0;
    else {
      const digits = zone.slice(1).replace(':', '');
      const oh = Number(digits.slice(0, 2));
      const om = Number(digits.slice(2) || '0');
      if (oh > 14 || om > 59) return null;
      offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
    }
  }
  const ms = Number(frac.slice(0, 3).padEnd(3, '0'));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  return new Date(utc);
}

/** A date-time field on the wire: required, parsed to a Date, with a clear message. */
export function wireDateTime(label: string) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(40, `${label} is too long`)
    .transform((value, ctx) => {
      const date = parseWireDateTime(value);
      if (!date) {
        ctx.addIssue({
          code: 'custom',
          message: `${label} must be a date and time such as 2026-12-01 09:00:00 (East Africa Time) or ISO 8601`,
        });
        return z.NEVER;
      }
      return date;
    });
}

const optionalText = (max: number, label: string) =>
  z.preprocess(
    (v) => ((typeof v === 'string' && v.trim() === '') || v === null ? undefined : v),
    z.string().trim().max(max, `${label} must be at most ${max} characters`).optional(),
  );

/** The mode, and the place of a farm visit or the link of a video call. */
const meetingShape = {
  mode: z.enum(meetingModes, { error: 'Choose phone call, farm visit or video call' }).default('phone'),
  place: optionalText(200, 'Place'),
  video_url: optionalText(500, 'Video link'),
};
type MeetingFields = { mode: MeetingMode; place?: string; video_url?: string };
function checkMeeting(v: MeetingFields, ctx: z.RefinementCtx) {
  if (v.mode === 'farm_visit' && !v.place) {
    ctx.addIssue({ code: 'custom', path: ['place'], message: 'Say where the farm visit happens' });
  }
  if (v.mode === 'video') {
    let ok = false;
    try {
      ok = new URL(v.video_url ?? '').protocol === 'https:';
    } catch {}
    if (!ok) {
      ctx.addIssue({
        code: 'custom',
        path: ['video_url'],
        message: 'Give the video call link, starting with https://',
      });
    }
  }
}

export const createSlotBody = z
  .object({
    start_time: wireDateTime('Start time'),
    end_time: wireDateTime('End time'),
    ...meetingShape,
  })
  .superRefine(checkMeeting);

const clockTime = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label} must be a time such as 09:00`);
/** '09:30' as minutes after midnight. */
export const clockMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export const weeklyAvailabilityBody = z
  .object({
    weekdays: z
      .array(numberText(z.number().int().min(1).max(7)), { error: 'Choose at least one day' })
      .min(1, 'Choose at least one day')
      .max(7),
    start_time: clockTime('From'),
    end_time: clockTime('Until'),
    slot_minutes: numberText(
      z
        .number({ error: 'Choose a slot length' })
        .refine((n) => (slotLengths as readonly number[]).includes(n), 'Choose a slot length'),
    ),
    ...meetingShape,
  })
  .superRefine((v, ctx) => {
    checkMeeting(v, ctx);
    const span = clockMinutes(v.end_time) - clockMinutes(v.start_time);
    if (span <= 0) ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'Until must be after From' });
    else if (span < v.slot_minutes) {
      ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'The hours are shorter than one slot' });
    }
  });
export type WeeklyAvailabilityBody = z.input<typeof weeklyAvailabilityBody>;

export const availabilityRule = z.object({
  id: z.number().int(),
  weekdays: z.array(z.number().int()),
  start_time: z.string(),
  end_time: z.string(),
  slot_minutes: z.number().int(),
  mode: z.enum(meetingModes),
  place: z.string().nullable(),
  video_url: z.string().nullable(),
  is_active: z.boolean(),
});
export type AvailabilityRule = z.infer<typeof availabilityRule>;
export const availabilityRuleList = z.object({ results: z.array(availabilityRule) });

export const availabilityRuleCreated = z.object({
  rule: availabilityRule,
  /** Slots made now (the next AVAILABILITY_WINDOW_DAYS days). */
  created: z.number().int(),
  /** Slots not made because they overlap one of the expert's slots, with a plain message each. */
  skipped: z.array(z.object({ start_time: isoDateTime, end_time: isoDateTime, message: z.string() })),
  message: z.string(),
});
export type AvailabilityRuleCreated = z.infer<typeof availabilityRuleCreated>;
export type CreateSlotBody = z.input<typeof createSlotBody>;

export const slotExpert = z.object({
  bio: z.string(),
  areas_of_expertise: z.string(),
  certifications: z.string(),
  user: z.object({ username: z.string() }),
});

export const availabilitySlot = z.object({
  id: z.number().int(),
  start_time: isoDateTime,
  end_time: isoDateTime,
  is_active: z.boolean(),
  /** True while a pending or approved booking holds the slot; a rejection frees it. */
  is_booked: z.boolean(),
  mode: z.enum(meetingModes),
  /** The place or link: shown to the slot's expert; a farmer sees it once a booking is approved. */
  place: z.string().nullable(),
  video_url: z.string().nullable(),
  /** Set for slots made from a weekly availability. */
  rule_id: z.number().int().nullable(),
  expert: slotExpert,
});
export type AvailabilitySlot = z.infer<typeof availabilitySlot>;
export const slotPage = paginated(availabilitySlot);
export type SlotPage = z.infer<typeof slotPage>;

/** A slot without its expert, inside that expert's group. */
export const expertSlot = availabilitySlot.omit({ expert: true });
export type ExpertSlot = z.infer<typeof expertSlot>;
/**
 * One expert's bookable slots, soonest first: the farmers' list groups them so the bio shows once and
 * the times as chips. Pages count experts, not slots.
 */
export const expertSlots = z.object({
  expert: slotExpert,
  slots: z.array(expertSlot),
});
export type ExpertSlots = z.infer<typeof expertSlots>;
export const expertSlotsPage = paginated(expertSlots);
export type ExpertSlotsPage = z.infer<typeof expertSlotsPage>;

export const bookSlotBody = z.object({
  slot_id: rowId('slot_id', 'Choose a slot to book'),
  topic: z
    .string({ error: 'Say in a few words what you want to talk about' })
    .trim()
    .min(3, 'Say in a few words what you want to talk about')
    .max(120, 'Keep the topic under 120 characters'),
  analysis_id: z.preprocess((v) => (v === '' || v === null ? undefined : v), rowId('analysis_id').optional()),
});
export type BookSlotBody = z.input<typeof bookSlotBody>;

export const bookingStatus = z.enum(bookingStatuses);

export const booking = z.object({
  id: z.number().int(),
  status: bookingStatus,
  /** The scheduled time the expert chose on approval; null until then. */
  selected_date: isoDateTime.nullable(),
  /** The expert's reason when rejecting (optional). */
  reason: z.string().nullable(),
  created_at: isoDateTime,
  decided_at: isoDateTime.nullable(),
  topic: z.string(),
  /** The farmer's analysis attached to the booking, if any. */
  analysis: z
    .object({
      id: z.number().int(),
      rust_class: z.enum(rustClasses).nullable().describe('The class Kutu gave the photo; null when it found no leaf'),
      confidence: z.number(),
      crop: z.enum(analysisCrops).nullable(),
    })
    .nullable(),
  mode: z.enum(meetingModes),
  /** Place, link and phone numbers: null until the booking is approved. */
  place: z.string().nullable(),
  video_url: z.string().nullable(),
  farmer: z.object({ username: z.string(), email: z.string().nullable(), phone: z.string().nullable() }),
  expert: z.object({ username: z.string(), phone: z.string().nullable() }),
  slot: z.object({ id: z.number().int(), start_time: isoDateTime, end_time: isoDateTime }),
  cancelled_by: z.enum(['farmer', 'expert']).nullable(),
  cancelled_at: isoDateTime.nullable(),
});
export type Booking = z.infer<typeof booking>;
export const bookingPage = paginated(booking);
export type BookingPage = z.infer<typeof bookingPage>;

export const bookingListQuery = pageQuery.extend({
  status: z.preprocess((v) => (v === '' ? undefined : v), bookingStatus.optional()),
});
export type BookingListQuery = z.input<typeof bookingListQuery>;

export const bookingActions = ['approve', 'reject'] as const;

export const manageBookingBody = z.object({
  booking_id: rowId('booking_id', 'Choose a booking'),
  action: z.enum(bookingActions, { error: 'Action must be approve or reject' }),
  /**
   * To approve: the meeting's time, inside the slot; left out, the slot's start (the slot fixes the
   * time). Ignored when rejecting. Empty text counts as not given.
   */
  selected_date: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    wireDateTime('Scheduled date and time').optional(),
  ),
  reason: z.preprocess(
    (v) => ((typeof v === 'string' && v.trim() === '') || v === null ? undefined : v),
    z.string().trim().max(500, 'Reason must be at most 500 characters').optional(),
  ),
});
export type ManageBookingBody = z.input<typeof manageBookingBody>;

/** The expert must say why; the farmer may. */
export const cancelBookingBody = z.object({
  reason: optionalText(500, 'Reason'),
});
export type CancelBookingBody = z.input<typeof cancelBookingBody>;
