import { describe, expect, it } from 'vitest';
import {
  activateBody,
  completeProfileBody,
  e164,
  expertRegisterBody,
  farmerRegisterBody,
  loginBody,
  passwordProblem,
  passwordStrength,
  verifyEmailBody,
} from './auth.ts';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

describe('password strength (the spec thresholds)', () => {
  it.each([
    ['abc', 'Too weak'],
    ['abcdefghijklmnop', 'Too weak'],
    ['abc12', 'Too weak'],
    ['abc123', 'Weak'],
    ['Abc12!x', 'Weak'],
    ['Abc12!xy', 'Medium'],
    ['abcdefgh1234', 'Weak'],
    ['Abc12!xyzw', 'Strong'],
    ['Gr0w!Smart2026', 'Strong'],
  ])('%s is %s', (password, level) => {
    expect(passwordStrength(password)).toBe(level);
  });

  it('refuses Weak and Too weak with the spec message', () => {
    expect(passwordProblem('abc')).toBe('Password is Too weak');
    expect(passwordProblem('abc123')).toBe('Password is Weak');
    expect(passwordProblem('Abc12!xy')).toBeNull();
  });
});

describe('email and phone', () => {
  it('accepts a basic email, trimmed and lower-cased', () => {
    expect(loginBody.parse({ email: ' Jane@Example.COM ', password: 'x' }).email).toBe('jane@example.com');
    for (const bad of ['jane', 'jane@example', '@example.com', 'ja ne@example.com']) {
      expect(firstMessage(loginBody.safeParse({ email: bad, password: 'x' }))).toBe('This is a wrong email');
    }
    // Since sign-in by phone (docs/decisions/0024), an empty sign-in asks for either.
    expect(firstMessage(loginBody.safeParse({ password: 'x' }))).toBe('Enter your email or phone number');
  });

  it("leaves a farmer's email optional (an empty field is none) and keeps an expert's required", () => {
    const farmer = {
      username: 'amina',
      password: 'Gr0w!Smart2026',
      confirm_password: 'Gr0w!Smart2026',
      phone_number: '+256772123456',
      farm_location: 'Mbale',
      farm_size: 2,
      consent: { service: true },
    };
    expect(farmerRegisterBody.parse(farmer).email).toBeUndefined();
    expect(farmerRegisterBody.parse({ ...farmer, email: '' }).email).toBeUndefined();
    expect(farmerRegisterBody.parse({ ...farmer, email: ' A@B.co ' }).email).toBe('a@b.co');
    expect(firstMessage(farmerRegisterBody.safeParse({ ...farmer, email: 'nope' }))).toBe('This is a wrong email');
    const expert = {
      username: 'okello',
      password: 'Gr0w!Smart2026',
      phone_number: '+256772123456',
      areas_of_expertise: 'Rust',
      consent: { service: true, sms: true, training: false },
    };
    expect(firstMessage(expertRegisterBody.safeParse(expert))).toBe('Email is required');
    // The web form asks for the password twice; older API clients that send it once still sign up.
    const withEmail = { ...expert, email: 'a@b.co' };
    expect(expertRegisterBody.safeParse(withEmail).success).toBe(true);
    expect(firstMessage(expertRegisterBody.safeParse({ ...withEmail, confirm_password: 'Gr0w!Smart2025' }))).toBe(
      'Password mismatch',
    );
  });

  it('takes an email or a phone number as the sign-in identifier', () => {
    expect(loginBody.parse({ identifier: ' +256772123456 ', password: 'x' }).identifier).toBe('+256772123456');
    expect(loginBody.safeParse({ identifier: '', password: 'x' }).success).toBe(false);
  });

  it('accepts E.164 phone numbers only', () => {
    for (const ok of ['+256772123456', '+254712345678']) expect(e164.safeParse(ok).success).toBe(true);
    for (const bad of ['0772123456', '+0772123456', '+256 772 123456', '+2567', '+2567721234567890']) {
      expect(e164.safeParse(bad).success).toBe(false);
    }
  });
});

describe('codes', () => {
  it('take four digits as text, or as a number with its leading zeros restored', () => {
    const ok = (code: unknown) => verifyEmailBody.parse({ token: 't', verificationCode: code }).verificationCode;
    expect(ok('0042')).toBe('0042');
    expect(ok(42)).toBe('0042');
    expect(ok(' 1234 ')).toBe('1234');
    for (const bad of ['', '123', '12345', 'abcd', 12345, -1, 1.5]) {
      expect(verifyEmailBody.safeParse({ token: 't', verificationCode: bad }).success).toBe(false);
    }
    expect(firstMessage(verifyEmailBody.safeParse({ token: 't' }))).toBe('Please enter the verification code.');
    expect(firstMessage(verifyEmailBody.safeParse({ verificationCode: '1234' }))).toBe(
      'Verification token is missing!',
    );
  });

  it('activation wants the OTP and the token, no password again (chosen at sign-up)', () => {
    const base = { otp: 1234, token: 't' };
    expect(activateBody.parse(base)).toEqual({ otp: '1234', token: 't' });
    expect(firstMessage(activateBody.safeParse({ ...base, otp: '' }))).toBe('Type in the OTP');
    // An older client's password fields are dropped, never checked or passed on.
    expect(activateBody.parse({ ...base, password: 'abc', confirmPassword: 'x' })).toEqual({ otp: '1234', token: 't' });
  });
});

describe('registration and profile', () => {
  const farmer = {
    email: 'a@b.co',
    username: 'jane_doe',
    password: 'Abc12!xyzw',
    confirm_password: 'Abc12!xyzw',
    phone_number: '+256772123456',
    farm_location: 'Mbale',
    farm_size: '2.5',
    consent: { service: true },
  };
  it('farmer sign-up coerces the farm size and defaults crop types', () => {
    expect(farmerRegisterBody.parse(farmer)).toMatchObject({ farm_size: 2.5, crop_types: [] });
    expect(firstMessage(farmerRegisterBody.safeParse({ ...farmer, farm_size: 0 }))).toBe(
      'Farm size must be more than 0 acres',
    );
    expect(firstMessage(farmerRegisterBody.safeParse({ ...farmer, confirm_password: 'x' }))).toBe('Password mismatch');
    expect(firstMessage(farmerRegisterBody.safeParse({ ...farmer, username: 'a b' }))).toMatch(/Username may/);
  });

  it('complete profile requires the spec fields; middle name is optional', () => {
    const profile = {
      idType: 'NATIONAL_ID',
      idNumber: 'CM123',
      organisationName: 'Mbale Growers',
      firstName: 'Jane',
      lastName: 'Doe',
      physicalAddress: 'Plot 1, Mbale',
      nationality: 'Ugandan',
      dob: '1990-05-01',
      occupation: 'Farmer',
    };
    expect(completeProfileBody.parse(profile)).toMatchObject({ middleName: '', gender: 'MALE' });
    for (const [field, label] of [
      ['firstName', 'First name'],
      ['lastName', 'Last name'],
      ['idNumber', 'ID number'],
      ['organisationName', 'Organisation name'],
      ['physicalAddress', 'Physical address'],
      ['nationality', 'Nationality'],
      ['occupation', 'Occupation'],
    ]) {
      expect(firstMessage(completeProfileBody.safeParse({ ...profile, [field]: '  ' }))).toBe(`${label} is required`);
      expect(firstMessage(completeProfileBody.safeParse({ ...profile, [field]: undefined }))).toBe(
        `${label} is required`,
      );
    }
    expect(firstMessage(completeProfileBody.safeParse({ ...profile, dob: '1990-13-01' }))).toBe(
      'Date of birth must be a date (YYYY-MM-DD)',
    );
  });
});
