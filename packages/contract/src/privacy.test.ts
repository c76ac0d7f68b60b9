import { describe, expect, it } from 'vitest';
import { consentChangeBody, deleteAccountBody, signupConsent } from './privacy.ts';

describe('privacy schemas', () => {
  it('requires the service consent at sign-up and leaves SMS and training off unless ticked', () => {
    expect(signupConsent.parse({ service: true })).toEqual({ service: true, sms: false, training: false });
    const refused = signupConsent.safeParse({ service: false, sms: true, training: true });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['service'],
      message: 'Agree to Kutu keeping your details to give you the service',
    });
  });

  it('changes SMS or training, one at least', () => {
    expect(consentChangeBody.safeParse({ training: true }).success).toBe(true);
    expect(consentChangeBody.safeParse({}).success).toBe(false);
  });

  it('deletes with a password or a 4-digit code', () => {
    expect(deleteAccountBody.safeParse({ password: 'x' }).success).toBe(true);
    expect(deleteAccountBody.safeParse({ code: '0427' }).success).toBe(true);
    expect(deleteAccountBody.safeParse({ code: '42' }).error?.issues[0].message).toBe('Enter the 4-digit code');
    expect(deleteAccountBody.safeParse({ password: '' }).error?.issues[0].message).toBe(
      'Enter your password or the code sent to you',
    );
  });
});
