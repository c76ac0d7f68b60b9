import { RECORDABLE_RESULT_KEYS } from '@kutu/contract/result-text';

/**
 * The result's fixed sentences, as the phone's Listen button reads them: the result headings and
 * explanations that take no values (a sentence with a number or a date cannot be recorded once for all).
 * The contract names them, so the server accepts a recording of each; the test checks the catalogue agrees.
 */
export function resultSentenceKeys(): string[] {
  return [...RECORDABLE_RESULT_KEYS];
}
