import { describe, expect, it } from 'vitest';
import { isGsm7, smsParts } from './sms-text.ts';

describe('the SMS length rule', () => {
  it('sends a text that fits as one message, with typographic characters made plain GSM-7', () => {
    expect(smsParts('Kutu: it’s “rust” – check…')).toEqual(['Kutu: it\'s "rust" - check...']);
    expect(isGsm7(smsParts('Kutu: it’s “rust” – check…')[0])).toBe(true);
    expect(smsParts('a'.repeat(160))).toHaveLength(1);
  });

  it('splits a longer text at word boundaries into numbered parts that each fit, and loses no word', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
    const parts = smsParts(words.join(' '));
    expect(parts.length).toBeGreaterThan(1);
    for (const [i, p] of parts.entries()) {
      expect(p.length).toBeLessThanOrEqual(153);
      expect(p.endsWith(` (${i + 1}/${parts.length})`)).toBe(true);
    }
    expect(parts.map((p) => p.replace(/ \(\d+\/\d+\)$/, '')).join(' ')).toBe(words.join(' '));
  });

  it('counts a text outside GSM-7 (Luganda ŋ) against the 70-character UCS-2 limit', () => {
    const text = `Kutu: ${'ŋŋ '.repeat(30)}`.trim();
    expect(isGsm7(text)).toBe(false);
    const parts = smsParts(text);
    expect(parts.length).toBe(2);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(67);
  });
});
