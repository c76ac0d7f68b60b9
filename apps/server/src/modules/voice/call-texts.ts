import { adviceTopics, type AdviceTopic, type Language } from '@kutu/contract';
import { type MessageKey, t } from '../../i18n/i18n.ts';

/** A sentence of the phone call: a key of the server's catalogue (`voice.call.…`), said with no values. */
export type CallKey = Extract<MessageKey, `voice.call.${string}`>;

export const resultKey = (topic: AdviceTopic): CallKey => `voice.call.result.${topic}` as CallKey;

/**
 * The call's sentences a person may record in a language: all but the two a fallback voice says for a
 * language without a voice (`voice.call.noRecording`, `voice.call.chooseOther`; VOICE_LANGUAGES).
 */
export const RECORDABLE_CALL_KEYS: readonly CallKey[] = [
  'voice.call.welcome',
  'voice.call.choose',
  'voice.call.notRegistered',
  'voice.call.noResult',
  ...adviceTopics.map(resultKey),
  'voice.call.byExpert',
  'voice.call.after',
  'voice.call.callbackAsked',
  'voice.call.callbackAlready',
  'voice.call.noKey',
  'voice.call.goodbye',
];

export const callText = (language: Language, key: CallKey) => t(language, key);
