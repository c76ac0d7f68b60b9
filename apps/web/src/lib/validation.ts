import type { ReactNode } from 'react';
import { t } from './language.ts';

/**
 * The contract's validation messages (packages/contract: the same English the server answers with) in
 * the language on screen. Forms keep checking with the contract's schemas; what they show passes
 * through translateErrors() (the schema resolver, the server's field errors) or translateMessage().
 * Each known message has a key under `validation` in en.json; a message not listed here is shown as
 * the contract wrote it (English), never dropped. No zod here: the sign-in page loads this file.
 */

/** Whole messages → keys under `validation`. */
const messages: Record<string, string> = {
  'This is a wrong email': 'wrongEmail',
  'Wrong email or password': 'wrongCredentials',
  'Username may contain letters, digits, dot, dash and underscore only': 'usernameCharacters',
  'Password is Too weak': 'passwordTooWeak',
  'Password is Weak': 'passwordWeak',
  'Password mismatch': 'passwordMismatch',
  'Confirm your password': 'confirmPassword',
  'Enter your current password': 'currentPassword',
  'Enter a valid phone number with its country code': 'phoneInvalid',
  'This phone number cannot exist: check the country code and the number of digits': 'phoneImpossible',
  'The code has 4 digits': 'codeDigits',
  'Type in the OTP': 'enterOtp',
  'Please enter the verification code.': 'enterVerificationCode',
  'Verification token is missing!': 'verificationTokenMissing',
  'Base64 token was not saved, check your email to retrieve it or contact support': 'tokenNotSaved',
  'Invalid Token, check your email': 'tokenInvalidCheckEmail',
  'This token is not valid': 'tokenInvalid',
  'ID type must be NATIONAL_ID or PASSPORT': 'idType',
  'Gender must be MALE or FEMALE': 'gender',
  'Date of birth must be a date (YYYY-MM-DD)': 'dateOfBirth',
  'Farm size must be a number of acres': 'farmSizeNumber',
  'Farm size must be more than 0 acres': 'farmSizePositive',
  'Years of experience must be a number': 'experienceNumber',
  'Years of experience must be a whole number': 'experienceWhole',
  'Years of experience cannot be negative': 'experienceNegative',
  'Years of experience must be at most 80': 'experienceMax',
  'Order must be a whole number from 0 to 1000': 'resourcePosition',
  'Enter your email or phone number': 'enterIdentifier',
  'Enter the code we sent by SMS': 'enterSmsCode',
  'Enter the code we emailed you': 'enterEmailCode',
  'Choose your district or county': 'chooseDistrict',
  'Choose a district or county from the list': 'districtFromList',
  'Choose the crop: Maize, Wheat, Rice or Beans': 'chooseCrop',
  'Choose a disease, or "I don\'t know"': 'chooseDisease',
  'Choose how urgent it is: Low, Medium or High': 'chooseUrgency',
  'Choose the growth stage': 'chooseGrowthStage',
  'Give the share of the field affected, 0 to 100 %': 'shareAffected',
  'Give the plants looked at, 1 to 1000': 'plantsLooked',
  'Give the plants with rust, no more than the plants looked at': 'plantsRust',
  'Give the share of the field affected, or count the plants': 'shareOrCounts',
  'Give both counts: the plants looked at and the plants with rust': 'bothCounts',
  "Choose one of the farmer's fields": 'farmerField',
  "Choose one of the farmer's fields or name a new one, not both": 'fieldOrNew',
  "Enter the farmer's name": 'farmerName',
  'Choose a language': 'chooseLanguage',
  'Agree to Kutu keeping your details to give you the service': 'consentService',
  'Enter your password or the code sent to you': 'passwordOrCode',
  'Enter the 4-digit code': 'fourDigitCode',
  'Choose at least one district or county': 'chooseDistricts',
  'At most 10 districts or counties': 'districtsMax',
  'Write a note': 'writeNote',
  'Say whether you called or visited': 'calledOrVisited',
  'Give the field a name': 'fieldName',
  'Give the size in acres': 'sizeAcres',
  'Give the size in acres, more than 0': 'sizePositive',
  'The place must be in Uganda or Kenya': 'placeInCountry',
  'Choose one of your fields': 'chooseField',
};

/** The contract's field names in its "<Field> is required" style messages → keys under `validation.fields`. */
const fields: Record<string, string> = {
  Email: 'email',
  Username: 'username',
  Password: 'password',
  'Phone number': 'phoneNumber',
  'Farm location': 'farmLocation',
  'Areas of expertise': 'areasOfExpertise',
  Certifications: 'certifications',
  Bio: 'bio',
  Institution: 'institution',
  'Languages spoken': 'languagesSpoken',
  'Social links': 'socialLinks',
  'ID number': 'idNumber',
  'Organisation name': 'organisationName',
  'First name': 'firstName',
  'Last name': 'lastName',
  'Physical address': 'physicalAddress',
  Nationality: 'nationality',
  Occupation: 'occupation',
  Title: 'title',
  Headline: 'headline',
  URL: 'url',
  Reason: 'reason',
  Content: 'content',
  Comment: 'comment',
  Office: 'office',
};

/** Messages built from a field name (and a length): key, and how to read the parameters. */
const patterns: [RegExp, string, (m: RegExpMatchArray) => Record<string, string>][] = [
  [/^(.+) is required$/, 'required', () => ({})],
  [/^(.+) must be text$/, 'text', () => ({})],
  [/^(.+) must be at most (\d+) characters$/, 'maxLength', (m) => ({ max: m[2]! })],
  [/^(.+) must be at least (\d+) characters$/, 'minLength', (m) => ({ min: m[2]! })],
];

/** The en.json key and parameters for a contract message, or null when it is not catalogued. */
export function validationKey(
  message: string,
): { key: string; params: Record<string, string>; fieldKey?: string } | null {
  const whole = messages[message];
  if (whole) return { key: `validation.${whole}`, params: {} };
  for (const [pattern, key, params] of patterns) {
    const m = message.match(pattern);
    const field = m && fields[m[1]!];
    if (m && field) return { key: `validation.${key}`, params: params(m), fieldKey: `validation.fields.${field}` };
  }
  return null;
}

/** A contract or server message in the language on screen (as it came, if not catalogued). */
export function translateMessage(message: string): string {
  const found = validationKey(message);
  if (!found) return message;
  const field: Record<string, string> = found.fieldKey ? { field: t(found.fieldKey) } : {};
  return t(found.key, { ...found.params, ...field });
}

/** Every string in a form's errors (resolver output, the server's `fields`) translated. */
export function translateErrors<E extends Record<string, ReactNode>>(errors: E): E {
  return Object.fromEntries(
    Object.entries(errors).map(([field, error]) => [
      field,
      typeof error === 'string' ? translateMessage(error) : error,
    ]),
  ) as E;
}
