import { describe, expect, it } from 'vitest';
import { preferredLanguage } from './accept-language.ts';

describe('preferredLanguage', () => {
  it('reads a single supported language, with or without region', () => {
    expect(preferredLanguage('sw')).toBe('sw');
    expect(preferredLanguage('sw-KE')).toBe('sw');
    expect(preferredLanguage('lg-UG')).toBe('lg');
    expect(preferredLanguage('EN-gb')).toBe('en');
  });

  it('takes the highest q-value, ties in the order written', () => {
    expect(preferredLanguage('en;q=0.5, lg;q=0.9, sw;q=0.7')).toBe('lg');
    expect(preferredLanguage('sw, en')).toBe('sw');
    expect(preferredLanguage('fr-FR, sw;q=0.8, en;q=0.9')).toBe('en');
  });

  it('skips unsupported and refused (q=0) languages', () => {
    expect(preferredLanguage('fr, lg;q=0.3')).toBe('lg');
    expect(preferredLanguage('sw;q=0, en;q=0.1')).toBe('en');
  });

  it('is null when nothing supported is asked for', () => {
    expect(preferredLanguage(undefined)).toBeNull();
    expect(preferredLanguage('')).toBeNull();
    expect(preferredLanguage('fr-FR, de;q=0.8')).toBeNull();
    expect(preferredLanguage('*')).toBeNull();
    expect(preferredLanguage('sw;q=0')).toBeNull();
  });
});
