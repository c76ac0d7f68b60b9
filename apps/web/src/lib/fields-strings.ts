import i18n from 'i18next';
import { lugandaAfterMu } from '@kutu/contract/luganda';
import { addScreenStrings } from './i18n.ts';

// "Tambula mu Ennimiro 1" → "Tambula mu nnimiro 1": a field's name filled in after "mu" (contract's luganda.ts).
// Only the fields screens' texts do that, so the rule comes with their strings, not with the first screens.
i18n.use({
  type: 'postProcessor',
  name: 'luganda',
  process: (value: string, _key: unknown, options: { lng?: string }, translator: { language?: string }) =>
    (options.lng ?? translator.language) === 'lg' ? lugandaAfterMu(value) : value,
});

/**
 * Resolved once the fields screens have their strings (lib/locale-parts.ts `FIELDS_SECTIONS`):
 * the language on screen's, English's fetched like another language's (decision 0121). A fields page
 * re-exports it; the router waits for it.
 */
export const screenStringsReady = addScreenStrings('fields');
