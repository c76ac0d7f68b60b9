import { z } from 'zod';
import { IMPOSSIBLE_PHONE, possiblePhone } from './phone-number.ts';
import { genders, idTypes, languages } from './enums.ts';
import { role, rowId, numberText } from './common.ts';
import { EMAIL_MAX, EMAIL_PATTERN, passwordProblem } from './rules.ts';
import { districtCode } from './outbreak.ts';
import { signupConsent, staffSignupConsent } from './privacy.ts';

export { passwordProblem, passwordStrength, strengthLevels, type StrengthLevel } from './rules.ts';

export const PASSWORD_MAX = 128;
/** A string field whose absence or wrong type reads as a clear message. */
const str = (missing: string) => z.string({ error: missing });
const email = str('Email is required')
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX)
  .regex(EMAIL_PATTERN, 'This is a wrong email');
const username = str('Username is required')
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(40, 'Username must be at most 40 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain letters, digits, dot, dash and underscore only');
const strongPassword = str('Password is required')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)
  .superRefine((value, ctx) => {
    const problem = passwordProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
/** E.164 in form only (`+` and 7 to 15 digits): what a sign-in looks an existing account up by. */
export const e164Form = str('Phone number is required').regex(
  /^\+[1-9]\d{6,14}$/,
  'Enter a valid phone number with its country code',
);
/**
 * E.164, as the phone input produces it, and a number that can exist in a country Kutu serves
 * (phone-number.ts, libphonenumber-js): a made-up number (+999…, a Ugandan number a digit short) is refused.
 */
export const e164 = e164Form.refine((v) => !/^\+[1-9]\d{6,14}$/.test(v) || possiblePhone(v), IMPOSSIBLE_PHONE);
/** A 4-digit code, as text ("0123") or as the number the spec's activation form sends (123). */
const code = (missing: string) =>
  z
    .union([z.string().trim(), z.number()], { error: missing })
    .transform((v) => (typeof v === 'number' ? String(v).padStart(4, '0') : v))
    .pipe(
      z
        .string()
        .min(1, missing)
        .regex(/^\d{4}$/, 'The code has 4 digits'),
    );
const required = (label: string, max = 120) =>
  str(`${label} is required`)
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const completeProfileBody = z.object({
  customerTypeId: rowId('customerTypeId').optional(),
  idType: z.enum(idTypes, { error: 'ID type must be NATIONAL_ID or PASSPORT' }),
  idNumber: required('ID number', 40),
  organisationName: required('Organisation name'),
  firstName: required('First name', 60),
  middleName: z.string().trim().max(60).optional().default(''),
  lastName: required('Last name', 60),
  gender: z.enum(genders, { error: 'Gender must be MALE or FEMALE' }).default('MALE'),
  physicalAddress: required('Physical address', 200),
  nationality: required('Nationality', 60),
  dob: z.iso.date({ error: 'Date of birth must be a date (YYYY-MM-DD)' }),
  occupation: required('Occupation', 80),
});
export type CompleteProfileBody = z.input<typeof completeProfileBody>;

const confirmation = str('Confirm your password').max(PASSWORD_MAX, 'Password mismatch');
const signUpToken = (missing: string) => str(missing).min(1, missing).max(200, 'This token is not valid');
const shortText = (label: string, max: number) =>
  str(`${label} must be text`).trim().max(max, `${label} must be at most ${max} characters`);

/** The language of the account's emails, SMS, notifications and error messages. */
const language = z.enum(languages, { error: 'Language must be en, sw or lg' });

/** Email or E.164 phone number; the server tells them apart (a phone starts with +). */
const identifier = str('Enter your email or phone number')
  .trim()
  .min(1, 'Enter your email or phone number')
  .max(EMAIL_MAX, 'Wrong email or password');
/**
 * `identifier` is the email or phone number; `email` is what clients before phone sign-up send, still
 * accepted (one of the two is needed).
 */
export const loginBody = z
  .object({
    identifier: identifier.optional(),
    email: email.optional(),
    password: str('Password is required').min(1, 'Password is required').max(PASSWORD_MAX, 'Wrong email or password'),
  })
  .refine((b) => b.identifier !== undefined || b.email !== undefined, {
    message: 'Enter your email or phone number',
    path: ['identifier'],
  });
export type LoginBody = z.input<typeof loginBody>;

/** A farmer's email is optional (sign-up by phone only); an empty field counts as none. */
const optionalEmail = z
  .union([z.literal(''), email])
  .optional()
  .transform((v) => v || undefined);

export const farmerRegisterBody = z
  .object({
    email: optionalEmail,
    username,
    password: strongPassword,
    confirm_password: confirmation,
    phone_number: e164,
    farm_location: required('Farm location', 200),
    farm_size: numberText(
      z
        .number({ error: 'Farm size must be a number of acres' })
        .positive('Farm size must be more than 0 acres')
        .max(1_000_000),
      'decimal',
    ),
    crop_types: z.array(z.string().trim().min(1).max(40)).max(20).default([]),
    language: language.optional(),
    /** The farmer's district or county from the shipped list, for outbreak watch; asked later when left out. */
    district: districtCode.optional(),
    /** What the farmer agreed to (the service is required), stored with the text version. */
    consent: signupConsent,
  })
  .refine((b) => b.password === b.confirm_password, { message: 'Password mismatch', path: ['confirm_password'] });
export type FarmerRegisterBody = z.input<typeof farmerRegisterBody>;

export const expertRegisterBody = z
  .object({
    email,
    username,
    password: strongPassword,
    /** Optional for API clients from before it was asked; the web form always sends it. */
    confirm_password: confirmation.optional(),
    phone_number: e164,
    areas_of_expertise: required('Areas of expertise', 500),
    certifications: shortText('Certifications', 500).default(''),
    bio: shortText('Bio', 2000).default(''),
    experience_years: numberText(
      z
        .number({ error: 'Years of experience must be a number' })
        .int('Years of experience must be a whole number')
        .min(0, 'Years of experience cannot be negative')
        .max(80, 'Years of experience must be at most 80')
        .default(0),
      'decimal',
    ),
    institution: shortText('Institution', 200).default(''),
    languages_spoken: shortText('Languages spoken', 200).default(''),
    social_links: shortText('Social links', 500).default(''),
    language: language.optional(),
    /** The district or county the expert serves: outbreak alerts there reach them. */
    district: districtCode.optional(),
    /** The service (required) and SMS: an expert is asked nothing about photos training the model. */
    consent: staffSignupConsent,
  })
  .refine((b) => b.confirm_password === undefined || b.password === b.confirm_password, {
    message: 'Password mismatch',
    path: ['confirm_password'],
  });
export type ExpertRegisterBody = z.input<typeof expertRegisterBody>;

/**
 * An extension officer's application: the districts (counties) they answer for and their office. The
 * email is optional (an officer without one gets the weekly summary by SMS).
 */
export const officerRegisterBody = z
  .object({
    email: optionalEmail,
    username,
    password: strongPassword,
    confirm_password: confirmation,
    phone_number: e164,
    office: required('Office', 200),
    districts: z
      .array(districtCode, { error: 'Choose your districts or counties' })
      .min(1, 'Choose at least one district or county')
      .max(10, 'At most 10 districts or counties')
      .transform((codes) => [...new Set(codes)]),
    language: language.optional(),
    /** The service (required) and SMS (the Monday summary of an officer without email comes by SMS). */
    consent: staffSignupConsent,
  })
  .refine((b) => b.password === b.confirm_password, { message: 'Password mismatch', path: ['confirm_password'] });
export type OfficerRegisterBody = z.input<typeof officerRegisterBody>;

export const registerReply = z.object({ message: z.string(), token: z.string() });

export const verifyEmailBody = z.object({
  token: signUpToken('Verification token is missing!'),
  verificationCode: code('Please enter the verification code.'),
});
export const verifyEmailReply = z.object({ message: z.string(), token: z.string() });

export const otpActionTypes = ['EMAIL_VERIFICATION', 'PHONE_ACTIVATION'] as const;
export const resendOtpBody = z.object({
  actionType: z.enum(otpActionTypes, { error: 'actionType must be EMAIL_VERIFICATION or PHONE_ACTIVATION' }),
  token: signUpToken('Verification token is missing!'),
});

/**
 * The SMS code and the sign-up token: the password was chosen (and confirmed) at sign-up, so it is not
 * asked again (docs/decisions/0041). A password an older client still sends is ignored.
 */
export const activateBody = z.object({
  otp: code('Type in the OTP'),
  token: signUpToken('Base64 token was not saved, check your email to retrieve it or contact support'),
});
/** `identifier`: the account's email, else its phone number, so sign-in can open with it filled in. */
export const activateReply = z.object({ message: z.string(), identifier: z.string() });

export const refreshBody = z.object({
  refresh: str('The refresh token is missing')
    .min(1, 'The refresh token is missing')
    .max(500, 'This refresh token is not valid'),
});
export const tokenPair = z.object({ access: z.string(), refresh: z.string() });

/** By email (a reset link) or, for an account signed up by phone, by phone number (an SMS code). */
export const forgotPasswordBody = z
  .object({ email: email.optional(), phone: e164.optional() })
  .refine((b) => b.email !== undefined || b.phone !== undefined, {
    message: 'Email is required',
    path: ['email'],
  });
export type ForgotPasswordBody = z.input<typeof forgotPasswordBody>;

/** Adding an email to an account that has none (signed up by phone). */
export const addEmailBody = z.object({ email });
export const confirmEmailBody = z.object({ email, code: code('Enter the code we emailed you') });
export type AddEmailBody = z.input<typeof addEmailBody>;
export type ConfirmEmailBody = z.input<typeof confirmEmailBody>;

export const resetPasswordByCodeBody = z
  .object({
    phone: e164,
    code: code('Enter the code we sent by SMS'),
    new_password: strongPassword,
    confirm_password: confirmation,
  })
  .refine((b) => b.new_password === b.confirm_password, { message: 'Password mismatch', path: ['confirm_password'] });
export type ResetPasswordByCodeBody = z.input<typeof resetPasswordByCodeBody>;
export const resetPasswordBody = z
  .object({
    token: signUpToken('Invalid Token, check your email'),
    new_password: strongPassword,
    confirm_password: confirmation,
  })
  .refine((b) => b.new_password === b.confirm_password, { message: 'Password mismatch', path: ['confirm_password'] });

export const changePasswordBody = z
  .object({
    oldPassword: str('Enter your current password').min(1, 'Enter your current password').max(PASSWORD_MAX),
    newPassword: strongPassword,
    confirmPassword: confirmation,
  })
  .refine((b) => b.newPassword === b.confirmPassword, { message: 'Password mismatch', path: ['confirmPassword'] });

export const profile = z.object({
  idType: z.enum(idTypes),
  idNumber: z.string(),
  organisationName: z.string(),
  firstName: z.string(),
  middleName: z.string(),
  lastName: z.string(),
  gender: z.enum(genders),
  physicalAddress: z.string(),
  nationality: z.string(),
  dob: z.string(),
  occupation: z.string(),
});

export const farmerDetails = z.object({
  farm_location: z.string(),
  farm_size: z.number(),
  crop_types: z.array(z.string()),
  /** Whether outbreak alerts also come by SMS (the in-app notification always comes). */
  sms_alerts: z.boolean(),
  /** Whether a rust advisory also comes as a phone call (docs/decisions/0123). */
  voice_warnings: z.boolean(),
});
export const expertDetails = z.object({
  areas_of_expertise: z.string(),
  certifications: z.string(),
  bio: z.string(),
  experience_years: z.number(),
  institution: z.string(),
  languages_spoken: z.string(),
  social_links: z.string(),
});

/** Where an expert account stands with the administrators (docs/decisions/0027). */
export const vettingStatuses = ['pending', 'approved', 'refused'] as const;
export type VettingStatus = (typeof vettingStatuses)[number];
export const expertVetting = z.object({
  status: z.enum(vettingStatuses),
  /** The administrator's reason, for a refused account. */
  reason: z.string().nullable(),
  decided_at: z.string().nullable(),
});
export type ExpertVetting = z.infer<typeof expertVetting>;

/** The user record the web app stores and the Account Summary reads. */
export const userRecord = z.object({
  id: z.number(),
  username: z.string(),
  /** Null for a farmer who signed up with a phone number only. */
  email: z.string().nullable(),
  role,
  phone: z.string(),
  language,
  /** District or county code (outbreak watch), any role; null until chosen. */
  district: z.string().nullable(),
  accountComplete: z.boolean(),
  /** A farmer without a district: the web app asks once for it. */
  needsDistrict: z.boolean(),
  profile: profile.nullable(),
  farmer: farmerDetails.nullable(),
  expert: expertDetails.nullable(),
  /** An expert's vetting; null for other roles. Until it is approved the expert can do nothing else. */
  vetting: expertVetting.nullable(),
  account: z.object({
    accountNumber: z.string(),
    accountType: z.string(),
    isActivated: z.boolean(),
    isPhoneVerified: z.boolean(),
    isEmailVerified: z.boolean(),
    /** Whether the account has a password (one made on a basic phone or at a clinic has none): it confirms a deletion. */
    hasPassword: z.boolean(),
    website: z.string().nullable(),
  }),
});
export type UserRecord = z.infer<typeof userRecord>;

export const languageBody = z.object({ language });
export const languageReply = z.object({ language });
export type LanguageBody = z.infer<typeof languageBody>;

/** A password change signs out other devices; this device gets a fresh pair. */
export const changePasswordReply = tokenPair.extend({ message: z.string() });

export const loginReply = z.object({ access: z.string(), refresh: z.string(), user: userRecord });
export type LoginReply = z.infer<typeof loginReply>;
