import {
  adviceVoiceKey,
  adviceVoiceText,
  type AdviceTopic,
  type AnalysisCrop,
  CALL_MENU,
  type Language,
  nativeNames,
  SYNTH_LANGUAGES,
  type VoiceCallbackBody,
  voiceApi,
  voiceFallbackOf,
} from '@kutu/contract';
import { ProgramMissingError } from '../../adapters/speech.ts';
import type { VoiceAction } from '../../adapters/voice-calls.ts';
import { voiceResponse } from '../../adapters/voice-calls.ts';
import type { ModuleDeps } from '../../deps.ts';
import type { AdviceService } from '../analysis/advice.service.ts';
import { phoneOf, type BasicPhoneService } from '../basic-phone/basic-phone.service.ts';
import type { DeliveryService } from '../delivery/delivery.service.ts';
import { render, t } from '../../i18n/i18n.ts';
import { type CallKey, callText, resultKey } from './call-texts.ts';
import type { Speaker } from './speaker.ts';

/** Seconds the gateway waits for a key. */
const KEY_TIMEOUT = 10;

type Prompt = { play: string } | { say: string };

/** The key a rust advisory's call is recorded and rendered under (its text changes with the district, crop and day). */
const ADVISORY_KEY = 'forecast.advisory.voice';

/**
 * Kutu's voice call for basic phones (docs/decisions/0087), answered as Africa's Talking's voice XML: a
 * farmer who calls (or whom Kutu calls after the USSD menu asked) picks a language with a key, hears
 * their last result and its advice, and may press a key to ask an expert to call back (the same
 * request as USSD's "call me"). The languages and the menu's keys are VOICE_LANGUAGES' (the contract): a
 * sentence of a language without a synthetic voice and with no approved recording is said in its fallback
 * voice (English for Luganda), after a sentence that says so. Where the key press leads is in the callback's query (`step`, `lang`).
 */
export function createCallService(
  deps: Pick<ModuleDeps, 'config' | 'clock'>,
  uses: {
    basicPhone: Pick<BasicPhoneService, 'phoneUser' | 'lastResult' | 'askCallBack'>;
    advice: Pick<AdviceService, 'book'>;
    speaker: Speaker;
    /** The calls the outbox placed (a rust advisory, docs/decisions/0123): what each says, by its session id. */
    placed?: Pick<DeliveryService, 'voiceCall'>;
  },
  log: (msg: string, err: unknown) => void,
) {
  const { speaker } = uses;
  const secret = encodeURIComponent(deps.config.phone.callbackSecret ?? '');
  const next = (step: 'language' | 'after', lang?: Language) =>
    `${deps.config.publicUrl}${voiceApi.call}?key=${secret}&step=${step}${lang ? `&lang=${lang}` : ''}`;

  /**
   * Sentences in one language, what it has no recording of in its fallback voice (VOICE_LANGUAGES): `told`
   * says whether this answer has already said that it is (once per answer).
   */
  function speech(language: Language, told = { fallback: false }) {
    const out: Prompt[] = [];
    const fallback = voiceFallbackOf(language);
    async function add(lang: Language, key: string, text: string): Promise<boolean> {
      try {
        const spoken = await speaker.say(lang, key, text);
        if (!spoken) return false;
        out.push({ play: speaker.url(spoken.name) });
      } catch (err) {
        // The gateway's own (English) voice rather than silence; a missing eSpeak NG was said once at the start.
        if (!(err instanceof ProgramMissingError)) log('could not render a sentence of the call', err);
        out.push({ say: text });
      }
      return true;
    }
    async function inFallback(key: string, text: string) {
      if (!told.fallback) {
        told.fallback = true;
        const said = t(fallback, 'voice.call.noRecording', { language: nativeNames[language] });
        await add(fallback, 'voice.call.noRecording', said);
      }
      await add(fallback, key, text);
    }
    return {
      out,
      /** A sentence; `instead` says it in the fallback voice where it has no recording (else the same sentence). */
      async line(key: CallKey, instead?: string) {
        if (await add(language, key, callText(language, key))) return;
        if (instead !== undefined) await add(fallback, key, instead);
        else await inFallback(key, callText(fallback, key));
      },
      /** Another module's text (a rust advisory): `said` in the language, else `instead` (the same in the fallback). */
      async text(key: string, said: string, instead: string) {
        if (await add(language, key, said)) return;
        await inFallback(key, instead);
      },
      async advice(topic: AdviceTopic, crop: AnalysisCrop | null) {
        const item = (await uses.advice.book(language)).find(topic, crop);
        if (!item) return;
        const key = adviceVoiceKey(item.topic, item.crop);
        // An entry not written in the language comes in English from the book already.
        if (item.language === language && (await add(language, key, adviceVoiceText(item)))) return;
        const other = item.language === fallback ? item : (await uses.advice.book(fallback)).find(topic, crop);
        if (other) await inFallback(key, adviceVoiceText(other));
      },
    };
  }

  async function languageMenu(language: Language): Promise<VoiceAction[]> {
    const told = { fallback: false };
    const welcome = speech(language, told);
    await welcome.line('voice.call.welcome');
    const options: Prompt[] = [];
    for (const [i, lang] of CALL_MENU.entries()) {
      const choose = speech(lang);
      // Each option in its own language; one without a voice or a recording in its fallback ("For Luganda, press 3").
      const other = t(voiceFallbackOf(lang), 'voice.call.chooseOther', { language: nativeNames[lang], key: i + 1 });
      await choose.line('voice.call.choose', other);
      options.push(...choose.out);
    }
    const none = speech(language, told);
    await none.line('voice.call.noKey');
    return [
      {
        getDigits: { numDigits: 1, timeoutSeconds: KEY_TIMEOUT, callbackUrl: next('language') },
        prompt: [...welcome.out, ...options],
      },
      ...none.out,
    ];
  }

  async function lastResult(userId: number, language: Language): Promise<VoiceAction[]> {
    const told = { fallback: false };
    const s = speech(language, told);
    const found = await uses.basicPhone.lastResult(userId);
    if (!found) await s.line('voice.call.noResult');
    else {
      await s.line(resultKey(found.topic as AdviceTopic));
      if (found.byExpert) await s.line('voice.call.byExpert');
      await s.advice(found.topic as AdviceTopic, found.last.crop);
    }
    const after = speech(language, told);
    await after.line('voice.call.after');
    const none = speech(language, told);
    await none.line('voice.call.goodbye');
    return [
      ...s.out,
      {
        getDigits: { numDigits: 1, timeoutSeconds: KEY_TIMEOUT, callbackUrl: next('after', language) },
        prompt: after.out,
      },
      ...none.out,
    ];
  }

  return {
    /** One request of the gateway: the XML the call goes on with. */
    async answer(body: VoiceCallbackBody, query: { step?: 'language' | 'after'; lang?: Language }): Promise<string> {
      // The last request reports the call's end (duration, cost): nothing more to say.
      if (body.isActive === '0') return voiceResponse([]);
      // A call the outbox placed with a rust advisory: its first request says the advisory, in the farmer's
      // language (or the fallback voice's, said as such), and the call ends.
      const placed = query.step ? undefined : await uses.placed?.voiceCall(body.sessionId);
      if (placed) {
        const s = speech(placed.language);
        await s.line('voice.call.welcome');
        const instead = render(voiceFallbackOf(placed.language), placed.text);
        await s.text(ADVISORY_KEY, render(placed.language, placed.text), instead);
        return voiceResponse(s.out);
      }
      const phone = phoneOf(body.callerNumber);
      const user = phone ? await uses.basicPhone.phoneUser(phone) : undefined;
      if (!user) {
        // An unknown caller's language is not known: said in each language a synthetic voice speaks, in order.
        const out: Prompt[] = [];
        for (const language of SYNTH_LANGUAGES) {
          const s = speech(language);
          await s.line('voice.call.notRegistered');
          out.push(...s.out);
        }
        return voiceResponse(out);
      }
      const digit = Number(body.dtmfDigits?.trim() ?? '');
      if (query.step === 'language') {
        const chosen = CALL_MENU[digit - 1];
        return voiceResponse(chosen ? await lastResult(user.id, chosen) : await languageMenu(user.language));
      }
      const language = query.lang;
      if (query.step === 'after' && language) {
        if (digit === 1) return voiceResponse(await lastResult(user.id, language));
        const s = speech(language);
        if (digit === 2) {
          const asked = await uses.basicPhone.askCallBack({
            userId: user.id,
            language,
            channel: 'call',
            now: deps.clock.now(),
          });
          await s.line(asked ? 'voice.call.callbackAsked' : 'voice.call.callbackAlready');
        } else await s.line('voice.call.goodbye');
        return voiceResponse(s.out);
      }
      return voiceResponse(await languageMenu(user.language));
    },
  };
}
