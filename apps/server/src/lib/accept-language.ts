import { type Language, languages } from '@kutu/contract';

const isLanguage = (tag: string): tag is Language => (languages as readonly string[]).includes(tag);

/**
 * The language Kutu writes in that the browser prefers most, from an Accept-Language header
 * ("sw-KE,sw;q=0.9,en;q=0.8" gives sw): the highest q-value wins, ties keep the header's order, a
 * region ("sw-KE") counts as its language, q=0 means "not this one". Null when none of ours is asked for.
 */
export function preferredLanguage(acceptLanguageHeader: string | undefined): Language | null {
  if (!acceptLanguageHeader) return null;
  let best: { language: Language; q: number } | null = null;
  for (const part of acceptLanguageHeader.split(',')) {
    const [range = '', ...params] = part.trim().split(';');
    const primary = range.trim().toLowerCase().split('-')[0] ?? '';
    const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!isLanguage(primary) || !Number.isFinite(q) || q <= 0 || q > 1) continue;
    if (!best || q > best.q) best = { language: primary, q };
  }
  return best?.language ?? null;
}
