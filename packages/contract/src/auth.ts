import { z } from 'zod';
import { passwordStrength as checkStrength, type Options } from 'check-password-strength';
import { genders, idTypes } from './enums.ts';
import { role } from './common.ts';

/** The spec's strength levels (check-password-strength's thresholds). */
export const strengthLevels = ['Too weak', 'Weak', 'Medium', 'Strong'] as const;
export type StrengthLevel = (typeof strengthLevels)[number];
const strengthOptions: Options<StrengthLevel> = [
  { id: 0, value: 'Too weak', minDiversity: 0, minLength: 0 },
  { id: 1, value: 'Weak', minDiversity: 2, minLength: 6 },
  { id: 2, value: 'Medium', minDiversity: 4, minLength: 8 },
  { id: 3, value: 'Strong', minDiversity: 4, minLength: 10 },
];
export function passwordStrength(password: string): StrengthLevel {
  return checkStrength(password, strengthOptions).value;
}
/** Weak and Too weak are refused with 'Password is <strength>'. */
export function passwordProblem(password: string): string | null {
  const level = passwordStrength(password);
  return level === 'Too weak' || level === 'Weak' ? `Password is ${level}` : null;
}

export const PASSWORD_MAX = 128;
const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'This is a wrong email');
const username = z
  .string()
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(40, 'Username must be at most 40 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain letters, digits, dot, dash and underscore only');
const strongPassword = z
  .string()
  .max(PASSWORD_MAX)
  .superRefine((value, ctx) => {
    const problem = passwordProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
/** E.164, as the phone input produces it. */
export const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'Enter a valid phone number with its country code');
const code = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).padStart(4, '0'))
  .pipe(z.string().regex(/^\d{4}$/, 'The code has 4 digits'));
const shortText = (max: number) => z.string().trim().max(max);

export const loginBody = z.object({ email, password: z.string().min(1, 'Password is required').max(PASSWORD_MAX) });

export const farmerRegisterBody = z
  .object({
    email,
    username,
    password: strongPassword,
    confirm_password: z.string().max(PASSWORD_MAX),
    phone_number: e164,
    farm_location: shortText(200).min(1, 'Farm location is required'),
    farm_size: z.coerce.number().positive('Farm size must be more than 0 acres').max(1_000_000),
    crop_types: z.array(z.string().trim().min(1).max(40)).max(20).default([]),
  })
  .refine((b) => b.password === b.confirm_password, { message: 'Password mismatch', path: ['confirm_password'] });
export type FarmerRegisterBody = z.input<typeof farmerRegisterBody>;

export const expertRegisterBody = z.object({
  email,
  username,
  password: strongPassword,
  phone_number: e164,
  areas_of_expertise: shortText(500).min(1, 'Areas of expertise are required'),
  certifications: shortText(500).default(''),
  bio: shortText(2000).default(''),
  experience_years: z.coerce.number().int().min(0).max(80).default(0),
  institution: shortText(200).default(''),
  languages_spoken: shortText(200).default(''),
  social_links: shortText(500).default(''),
});
export type ExpertRegisterBody = z.input<typeof expertRegisterBody>;

export const registerReply = z.object({ message: z.string(), token: z.string() });

export const verifyEmailBody = z.object({
  token: z.string().min(1, 'Verification token is missing!').max(200),
  verificationCode: code,
});
export const verifyEmailReply = z.object({ message: z.string(), token: z.string() });

export const otpActionTypes = ['EMAIL_VERIFICATION', 'PHONE_ACTIVATION'] as const;
export const resendOtpBody = z.object({ actionType: z.enum(otpActionTypes), token: z.string().min(1).max(200) });

export const activateBody = z
  .object({
    otp: code,
    token: z.string().min(1, 'Base64 token was not saved, check your email to retrieve it or contact support').max(200),
    password: strongPassword,
    confirmPassword: z.string().max(PASSWORD_MAX),
  })
  .refine((b) => b.password === b.confirmPassword, { message: 'Password mismatch', path: ['confirmPassword'] });

export const refreshBody = z.object({ refresh: z.string().min(1).max(500) });
export const tokenPair = z.object({ access: z.string(), refresh: z.string() });

export const forgotPasswordBody = z.object({ email });
export const resetPasswordBody = z
  .object({
    token: z.string().min(1, 'Invalid Token, check your email').max(200),
    new_password: strongPassword,
    confirm_password: z.string().max(PASSWORD_MAX),
  })
  .refine((b) => b.new_password === b.confirm_password, { message: 'Password mismatch', path: ['confirm_password'] });

export const changePasswordBody = z
  .object({
    oldPassword: z.string().min(1, 'Enter your current password').max(PASSWORD_MAX),
    newPassword: strongPassword,
    confirmPassword: z.string().max(PASSWORD_MAX),
  })
  .refine((b) => b.newPassword === b.confirmPassword, { message: 'Password mismatch', path: ['confirmPassword'] });

const required = (label: string, max = 120) => z.string().trim().min(1, `${label} is required`).max(max);
export const completeProfileBody = z.object({
  customerTypeId: z.coerce.number().int().positive().optional(),
  idType: z.enum(idTypes),
  idNumber: required('ID number', 40),
  organisationName: required('Organisation name'),
  firstName: required('First name', 60),
  middleName: z.string().trim().max(60).optional().default(''),
  lastName: required('Last name', 60),
  gender: z.enum(genders).default('MALE'),
  physicalAddress: required('Physical address', 200),
  nationality: required('Nationality', 60),
  dob: z.iso.date('Date of birth must be a date (YYYY-MM-DD)'),
  occupation: required('Occupation', 80),
});
export type CompleteProfileBody = z.input<typeof completeProfileBody>;

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

/** The user record the web app stores and the Account Summary reads. */
export const userRecord = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  role,
  phone: z.string(),
  accountComplete: z.boolean(),
  profile: profile.nullable(),
  farmer: farmerDetails.nullable(),
  expert: expertDetails.nullable(),
  account: z.object({
    accountNumber: z.string(),
    accountType: z.string(),
    isActivated: z.boolean(),
    isPhoneVerified: z.boolean(),
    isEmailVerified: z.boolean(),
    website: z.string().nullable(),
  }),
});
export type UserRecord = z.infer<typeof userRecord>;

export const loginReply = z.object({ access: z.string(), refresh: z.string(), user: userRecord });
export type LoginReply = z.infer<typeof loginReply>;
