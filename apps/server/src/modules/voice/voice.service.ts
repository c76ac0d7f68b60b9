import type { ModuleDeps } from '../../deps.ts';
import type { AdviceService } from '../analysis/advice.service.ts';
import type { BasicPhoneService } from '../basic-phone/basic-phone.service.ts';
import type { DeliveryService } from '../delivery/delivery.service.ts';
import {
  adviceVoiceKey,
  adviceVoiceText,
  CALL_MENU,
  isSynthLanguage,
  nativeNames,
  voiceFallbackOf,
} from '@kutu/contract';
import { SYNTH_LANGUAGES } from '@kutu/contract/voice-paths';
import { t } from '../../i18n/i18n.ts';
import { callText, RECORDABLE_CALL_KEYS } from './call-texts.ts';
import { createCallService } from './call.service.ts';
import { createClipsService } from './clips.service.ts';
import { createSpeaker } from './speaker.ts';
import { createVoiceRepo } from './voice.repo.ts';

/**
 * Spoken answers (docs/decisions/0087), split by job: recorded clips (record, approve, the phone's pack)
 * and the voice call for basic phones, which plays sentences through the speaker.
 */
export function createVoiceService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'storage' | 'speech' | 'config'>,
  uses: {
    advice: Pick<AdviceService, 'list' | 'book'>;
    basicPhone: Pick<BasicPhoneService, 'phoneUser' | 'lastResult' | 'askCallBack'>;
    /** The calls the outbox placed: a rust advisory's call says it (docs/decisions/0123). */
    placed?: Pick<DeliveryService, 'voiceCall'>;
  },
  log: (msg: string, err: unknown) => void,
) {
  const speaker = createSpeaker(deps, createVoiceRepo(deps.db));
  return {
    clips: createClipsService(deps, uses),
    call: createCallService(deps, { ...uses, speaker }, log),
    speaker,

    /**
     * Renders what a call may say in each synthetic voice (its sentences, every advice entry) that is not
     * stored yet, one after the other: the first caller after a release or an advice edit does not wait.
     * Returns how many sentences it went through.
     */
    async warm(): Promise<number> {
      let n = 0;
      for (const language of SYNTH_LANGUAGES) {
        const advice = (await uses.advice.list(language)).results.filter((a) => a.language === language);
        // What this voice says for each language that falls back on it: "no recording yet", its menu option.
        const stands = CALL_MENU.flatMap((other, i) =>
          isSynthLanguage(other) || voiceFallbackOf(other) !== language
            ? []
            : [
                {
                  key: 'voice.call.noRecording',
                  text: t(language, 'voice.call.noRecording', { language: nativeNames[other] }),
                },
                {
                  key: 'voice.call.choose',
                  text: t(language, 'voice.call.chooseOther', { language: nativeNames[other], key: i + 1 }),
                },
              ],
        );
        const texts = [
          ...RECORDABLE_CALL_KEYS.map((key) => ({ key: key as string, text: callText(language, key) })),
          ...stands,
          ...advice.map((a) => ({ key: adviceVoiceKey(a.topic, a.crop), text: adviceVoiceText(a) })),
        ];
        for (const { key, text } of texts) {
          await speaker.say(language, key, text);
          n++;
        }
      }
      return n;
    },
  };
}
