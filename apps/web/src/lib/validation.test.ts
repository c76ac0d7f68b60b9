import { afterEach, describe, expect, it } from 'vitest';
import {
  activateBody,
  changePasswordBody,
  completeProfileBody,
  deleteAccountBody,
  expertRegisterBody,
  farmerRegisterBody,
  forgotPasswordBody,
  loginBody,
  resetPasswordBody,
  verifyEmailBody,
} from '@kutu/contract';
import type { z } from 'zod';
import i18n from './i18n.ts';
import { translateErrors, translateMessage, validationKey } from './validation.ts';

const long = (n: number) => 'x'.repeat(n + 1);
/** Wrong inputs for every field of the account forms (sign-up, sign-in, codes, passwords, profile). */
const attempts: [z.ZodType, unknown[]][] = [
  [loginBody, [{}, { email: 'nope', password: '' }, { email: 'a@b.co', password: long(128) }]],
  [
    farmerRegisterBody,
    [
      {},
      { email: 'nope', username: 'a', password: 'abc', confirm_password: 'abd', phone_number: '123', farm_size: 'x' },
      { username: 'a b$', password: 'abcdef1', farm_location: '', farm_size: -1 },
      { username: long(40), password: long(128), confirm_password: 1, farm_location: long(200) },
      { consent: { service: false, sms: true, training: false } },
    ],
  ],
  [
    expertRegisterBody,
    [
      {},
      { experience_years: 'x', bio: 5, areas_of_expertise: '' },
      { experience_years: 1.5, bio: long(2000), certifications: long(500), institution: long(200) },
      { experience_years: -1, languages_spoken: long(200), social_links: long(500), areas_of_expertise: long(500) },
      { experience_years: 100 },
    ],
  ],
  [verifyEmailBody, [{}, { token: '', verificationCode: '12' }, { token: long(200), verificationCode: 'abcd' }]],
  [activateBody, [{}, { otp: '', token: '' }, { otp: 'abcd', token: long(200) }]],
  [forgotPasswordBody, [{}, { email: 'x' }]],
  [deleteAccountBody, [{}, { code: '12' }]],
  [resetPasswordBody, [{}, { token: '', new_password: 'abc', confirm_password: 'abd' }]],
  [changePasswordBody, [{}, { oldPassword: '', newPassword: 'abc', confirmPassword: 'x' }]],
  [
    completeProfileBody,
    [
      {},
      { idType: 'X', gender: 'X', dob: 'yesterday', idNumber: ' ', firstName: long(60), lastName: long(60) },
      { organisationName: long(120), physicalAddress: long(200), nationality: long(60), occupation: long(80) },
    ],
  ],
];
const shown = new Set<string>();
for (const [schema, inputs] of attempts) {
  for (const input of inputs) {
    const result = schema.safeParse(input);
    for (const issue of result.error?.issues ?? []) shown.add(issue.message);
  }
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('validation messages', () => {
  it('every message the account forms can show has a key, and reads as before in English', () => {
    expect(shown.size).toBeGreaterThan(30);
    const missing = [...shown].filter((m) => !validationKey(m));
    expect(missing).toEqual([]);
    for (const message of shown) expect(translateMessage(message)).toBe(message);
  });

  it('shows them in the language on screen, field names included', async () => {
    i18n.addResourceBundle('sw', 'translation', {
      validation: {
        passwordWeak: 'Nenosiri ni dhaifu (test)',
        required: '{{field}} inahitajika (test)',
        maxLength: '{{field}}: herufi {{max}} (test)',
        fields: { farmLocation: 'Mahali pa shamba (test)' },
      },
    });
    await i18n.changeLanguage('sw');
    expect(translateMessage('Password is Weak')).toBe('Nenosiri ni dhaifu (test)');
    expect(translateMessage('Farm location is required')).toBe('Mahali pa shamba (test) inahitajika (test)');
    expect(translateMessage('Farm location must be at most 200 characters')).toBe(
      'Mahali pa shamba (test): herufi 200 (test)',
    );
    expect(translateErrors({ password: 'Password is Weak', other: 'Not catalogued' })).toEqual({
      password: 'Nenosiri ni dhaifu (test)',
      other: 'Not catalogued',
    });
  });
});
