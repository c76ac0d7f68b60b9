import { z } from 'zod';
import { paginated } from './common.ts';

/**
 * The version of the consent texts a person is shown (web sign-up, USSD registration, clinic visit,
 * profile). Change it whenever a consent text changes meaning: each choice is stored with the version agreed to.
 */
export const CONSENT_TEXT_VERSION = '2026-11-v1';

/**
 * The one account that holds, anonymised, what others still need after an erasure. Its name cannot be a
 * user's (the contract allows no space) and its "phone" is no number, so nobody can sign up as it or into it.
 */
export const FORMER_MEMBER = { username: 'Former member', phone: 'erased' } as const;

/** What a person may agree to: the service itself (required to have an account), SMS, photos training the model. */
export const consentPurposes = ['service', 'sms', 'training'] as const;
export type ConsentPurpose = (typeof consentPurposes)[number];
/** What a person said yes or no to, by purpose; a purpose left out is not asked again. */
export type ConsentChoices = Partial<Record<ConsentPurpose, boolean>>;

/** The choices given at sign-up: the service must be agreed to, the two others are free. */
const SERVICE_REQUIRED = 'Agree to Kutu keeping your details to give you the service';
export const signupConsent = z.object(
  {
    service: z.literal(true, { error: SERVICE_REQUIRED }),
    sms: z.boolean({ error: 'Choose whether Kutu may send you SMS' }).default(false),
    training: z.boolean({ error: 'Choose whether your photos may train the model' }).default(false),
  },
  { error: SERVICE_REQUIRED },
);
export type SignupConsent = z.input<typeof signupConsent>;

/**
 * An expert's or an extension officer's sign-up: the service and SMS only. Their own photos train nothing
 * (an expert's training uploads are their work, not their data), so they are not asked about it.
 */
export const staffSignupConsent = z.object(
  {
    service: z.literal(true, { error: SERVICE_REQUIRED }),
    sms: z.boolean({ error: 'Choose whether Kutu may send you SMS' }).default(false),
  },
  { error: SERVICE_REQUIRED },
);
export type StaffSignupConsent = z.input<typeof staffSignupConsent>;

/** The profile's change: SMS and training only (the service is withdrawn by deleting the account). */
export const consentChangeBody = z
  .object({ sms: z.boolean().optional(), training: z.boolean().optional() })
  .refine((b) => b.sms !== undefined || b.training !== undefined, { message: 'Choose what to change' });
export type ConsentChangeBody = z.input<typeof consentChangeBody>;

const choice = z.object({
  granted: z.boolean(),
  /** When the choice was made, and where; null for a purpose never asked (photos of before: no). */
  at: z.iso.datetime().nullable(),
  channel: z.enum(['web', 'ussd', 'clinic', 'sms', 'profile']).nullable(),
  text_version: z.string().nullable(),
});
export const consentState = z.object({ service: choice, sms: choice, training: choice });
export type ConsentState = z.infer<typeof consentState>;

/** Deleting one's account: the password, or for an account without one, the code sent by SMS. */
export const deleteAccountBody = z
  .object({
    password: z.string().max(200).optional(),
    code: z
      .string()
      .trim()
      .regex(/^\d{4}$/, 'Enter the 4-digit code')
      .optional(),
  })
  .refine((b) => Boolean(b.password) || b.code !== undefined, {
    message: 'Enter your password or the code sent to you',
    path: ['password'],
  });
export type DeleteAccountBody = z.input<typeof deleteAccountBody>;

/** One erasure as the administrator sees it: nothing of the person. */
export const erasureEntry = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  role: z.enum(['farmer', 'expert', 'officer']),
  requested_via: z.enum(['web', 'sms']),
  // A record rather than `erasureCountKeys`: entries written before a count was added lack it.
  counts: z.record(z.string(), z.number().int()),
});
export const erasureList = paginated(erasureEntry);
export type ErasureList = z.infer<typeof erasureList>;
export type ErasureEntry = z.infer<typeof erasureEntry>;
