const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `text` cut to at most `max` UTF-16 code units (what `String.length` counts, and what an SMS gateway
 * bills), only between whole characters as a reader sees them (grapheme clusters): an emoji, a flag or
 * a letter with its accent is kept whole or left out, never split into a broken character.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const { segment } of graphemes.segment(text)) {
    if (out.length + segment.length > max) break;
    out += segment;
  }
  return out;
}
