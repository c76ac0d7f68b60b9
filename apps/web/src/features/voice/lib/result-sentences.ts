import type { ResourceKey } from 'i18next';

/**
 * The result's fixed sentences, as the phone's Listen button reads them: the web catalogue's result
 * headings and explanations that take no values (a sentence with a number or a date cannot be recorded
 * once for all). Keys, from English's catalogue: every language has the same (lib/locales.test.ts).
 */
export function resultSentenceKeys(english: ResourceKey): string[] {
  const result = (english as { analysis?: { result?: Record<string, Record<string, string>> } }).analysis?.result ?? {};
  return (['heading', 'explanation'] as const).flatMap((part) =>
    Object.entries(result[part] ?? {})
      .filter(([, text]) => typeof text === 'string' && !text.includes('{{'))
      .map(([name]) => `analysis.result.${part}.${name}`),
  );
}
