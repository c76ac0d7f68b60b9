import type { ModuleDeps } from '../../deps.ts';
import type { AdviceService } from '../analysis/advice.service.ts';
import type { BasicPhoneService } from '../basic-phone/basic-phone.service.ts';
import { adviceVoiceKey, adviceVoiceText } from '@kutu/contract';
import { SYNTH_LANGUAGES } from '@kutu/contract/voice-paths';
import { type CallKey, callText, RECORDABLE_CALL_KEYS } from './call-texts.ts';
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
  },
  log: (msg: string, err: unknown) => void,
) {
  const speaker = createSpeaker(deps, createVoiceRepo(deps.db));
  return {
    clips: createClipsService(deps, uses),
    call: createCallService(deps, { ...uses, speaker }, log),
    speaker,

    /**
     * Renders what a call may say in English and Kiswahili (its sentences, every advice entry) that is not
     * stored yet, one after the other: the first caller after a release or an advice edit does not wait.
     * Returns how many sentences it went through.
     */
    async warm(): Promise<number> {
      let n = 0;
      for (const language of SYNTH_LANGUAGES) {
        const keys: CallKey[] = [...RECORDABLE_CALL_KEYS, 'voice.call.forLuganda', 'voice.call.noLuganda'];
        const advice = (await uses.advice.list(language)).results.filter((a) => a.language === language);
        const texts = [
          ...keys.map((key) => ({ key: key as string, text: callText(language, key) })),
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
