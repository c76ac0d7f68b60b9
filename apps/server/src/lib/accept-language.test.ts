import { describe, expect, it } from 'vitest';
import { preferredLanguage } from './accept-language.ts';

describe('preferredLanguage', () => {
  it('reads a region as its language', () => {
    expect(preferredLanguage('sw-KE')).toBe('sw');
    expect(preferredLanguage('lg-UG,en;q=0.5')).toBe('lg');
  });

  it('takes the highest q-value, whatever the order', () => {
    expect(preferredLanguage('en;q=0.3, sw;q=0.9, lg;q=0.5')).toBe('sw');
    expect(preferredLanguage('fr-FR, de;q=0.9, lg;q=0.2, en;q=0.1')).toBe('lg');
  });

  it('keeps the header order between equal q-values', () => {
    expect(preferredLanguage('lg, sw')).toBe('lg');
  });

  it('skips languages refused with q=0 and those Kutu does not write', () => {
    expect(preferredLanguage('sw;q=0, en;q=0.1')).toBe('en');
    expect(preferredLanguage('fr, de')).toBeNull();
    expect(preferredLanguage('*')).toBeNull();
  });

  it('answers null without a header', () => {
    expect(preferredLanguage(undefined)).toBeNull();
    expect(preferredLanguage('')).toBeNull();
  });
});
