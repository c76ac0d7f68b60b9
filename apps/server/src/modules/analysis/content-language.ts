import type { ContentLanguage } from '@kutu/contract';
import { preferredLanguage } from '../../lib/accept-language.ts';

/** The language advice and resources are answered in: the caller's Accept-Language choice, else English. */
export function contentLanguageOf(req: { headers: { 'accept-language'?: string } }): ContentLanguage {
  return preferredLanguage(req.headers['accept-language']) ?? 'en';
}
