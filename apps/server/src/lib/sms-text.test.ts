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

  it('keeps a link with the words before it in its sentence: no part ends "See:" with the link alone after it', () => {
    const link = 'https://kutu.example.org/a/12345';
    const step = 'Remove the worst leaves and burn them, then spray the rest of the field this week.';
    // Without the link the text fits one part and a little more: "See:" fits part 1, the link does not.
    const head = `Kutu: an expert checked your leaf photo: Common rust. ${step}`;
    const filler = `${'x'.repeat(147 - head.length - ' See:'.length - 2)}.`;
    const parts = smsParts(`${head} ${filler} See: ${link}`);
    expect(parts).toHaveLength(2);
    expect(parts[0]).not.toMatch(/See: \(1\/2\)$/);
    expect(parts[1]).toBe(`See: ${link} (2/2)`);
    // A link too long for a part is still cut, and nothing is lost.
    const long = `https://kutu.example.org/${'a'.repeat(300)}`;
    const cut = smsParts(`See: ${long}`);
    for (const p of cut) expect(p.length).toBeLessThanOrEqual(153);
    expect(cut.map((p) => p.replace(/ \(\d\/\d\)$/, '')).join('')).toBe(`See:${long}`);
  });
});
