import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { e164, e164Form } from './auth.ts';
import { buildPhoneMetadata, renderPhoneMetadataModule } from './phone-metadata.build.ts';
import { IMPOSSIBLE_PHONE, possiblePhone } from './phone-number.ts';

describe('phone numbers that can exist (libphonenumber-js)', () => {
  it('takes Ugandan and Kenyan mobile numbers and their neighbours’', () => {
    for (const ok of ['+256772123456', '+256701000001', '+254712345678', '+255712345678']) {
      expect(possiblePhone(ok), ok).toBe(true);
      expect(e164.safeParse(ok).success, ok).toBe(true);
    }
  });

  it('refuses a country code that does not exist and a Ugandan number of the wrong length, with a clear message', () => {
    for (const bad of ['+999123456789', '+99912345678', '+25677212345', '+2567721234567']) {
      expect(possiblePhone(bad), bad).toBe(false);
      expect(e164Form.safeParse(bad).success, bad).toBe(true); // the old check let it through
      const parsed = e164.safeParse(bad);
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues.map((i) => i.message)).toEqual([IMPOSSIBLE_PHONE]);
    }
  });

  it('says only "with its country code" for a number not in E.164 form', () => {
    expect(e164.safeParse('0772123456').error?.issues.map((i) => i.message)).toEqual([
      'Enter a valid phone number with its country code',
    ]);
  });

  it('the committed phone-metadata.ts equals the one generated from the installed libphonenumber-js', () => {
    const committed = readFileSync(new URL('./phone-metadata.ts', import.meta.url), 'utf8');
    expect(committed).toBe(renderPhoneMetadataModule(buildPhoneMetadata()));
  });
});
