import { describe, expect, it } from 'vitest';
import { cutText } from './cut-text.ts';

describe('cutText', () => {
  it('never splits an emoji, a family or a flag', () => {
    const text = `${'a'.repeat(159)}😀 and more`;
    expect(cutText(text, 160)).toBe('a'.repeat(159));
    expect(cutText(`${'b'.repeat(155)}👨‍👩‍👧 end`, 160)).toBe('b'.repeat(155));
    expect(cutText('🇺🇬🇰🇪', 6)).toBe('🇺🇬');
    expect(cutText('short', 160)).toBe('short');
    expect(cutText(`${'c'.repeat(158)}😀`, 160)).toBe(`${'c'.repeat(158)}😀`);
  });
});
