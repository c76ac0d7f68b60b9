import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { Language } from '@kutu/contract';
import { isSynthLanguage, type SynthLanguage, voiceApi } from '@kutu/contract/voice-paths';
import type { ModuleDeps } from '../../deps.ts';
import type { VoiceRepo } from './voice.repo.ts';

/** Where rendered sentences are kept: one MP3 per engine version, language and text, never rendered twice. */
const SPEECH_FOLDER = 'voice/speech';
const CLIP_FOLDER = 'voice/clips';

/** A sentence the call plays: the audio's name (under `voiceApi.callAudio`) and the language it is in. */
export interface Spoken {
  name: string;
  language: Language;
}

/** The storage key of a played name: `s-<hash>.mp3` a rendered sentence, `c-<id>.mp3` a recorded clip. */
export function storageKeyOf(name: string): string | null {
  const m = /^([sc])-([\w-]{8,80})\.mp3$/.exec(name);
  if (!m) return null;
  return path.posix.join(m[1] === 's' ? SPEECH_FOLDER : CLIP_FOLDER, `${m[2]}.mp3`);
}

/**
 * The call's audio (docs/decisions/0087): a sentence is the approved recording of its text when one exists
 * and still reads that text, else eSpeak NG's rendering (English and Kiswahili), kept in storage so each
 * text is rendered once per voice version. The gateway fetches them by a name signed with the callback
 * secret: nothing else under that address can be fetched.
 */
export function createSpeaker(deps: Pick<ModuleDeps, 'storage' | 'speech' | 'config'>, repo: VoiceRepo) {
  const secret = deps.config.phone.callbackSecret ?? '';
  const rendering = new Map<string, Promise<void>>();
  const stored = new Set<string>();

  const sign = (name: string) =>
    createHmac('sha256', `voice-audio:${secret}`).update(name).digest('base64url').slice(0, 32);

  async function rendered(language: SynthLanguage, text: string): Promise<string> {
    const hash = createHash('sha256')
      .update(`${await deps.speech.version()}\n${language}\n${text}`)
      .digest('hex')
      .slice(0, 40);
    const name = `s-${hash}.mp3`;
    const key = storageKeyOf(name)!;
    if (stored.has(key)) return name;
    let job = rendering.get(key);
    if (!job) {
      job = (async () => {
        if (!(await deps.storage.exists(key))) {
          const audio = await deps.speech.synthesize(text, language);
          await deps.storage.putKey(key, audio.mp3, 'audio/mpeg');
        }
        stored.add(key);
      })().finally(() => rendering.delete(key));
      rendering.set(key, job);
    }
    await job;
    return name;
  }

  return {
    /** The absolute address the gateway fetches a name at. */
    url: (name: string) => `${deps.config.publicUrl}${voiceApi.callAudio.replace(':name', name)}?sig=${sign(name)}`,

    /** Whether `sig` is this server's signature of `name` (constant time). */
    signed(name: string, sig: string): boolean {
      const want = Buffer.from(sign(name));
      const given = Buffer.from(sig);
      return secret !== '' && given.length === want.length && timingSafeEqual(given, want);
    },

    /**
     * `text` (under `key`) said in `language`: the approved recording in use when it reads this very text,
     * else the synthetic voice (VOICE_LANGUAGES' synth ones); null for a language without one and no recording.
     */
    async say(language: Language, key: string, text: string): Promise<Spoken | null> {
      const clip = await repo.inUseFor(language, key);
      if (clip && clip.text === text) return { name: `c-${path.posix.basename(clip.audioPath, '.mp3')}.mp3`, language };
      if (!isSynthLanguage(language)) return null;
      return { name: await rendered(language, text), language };
    },

    stream: (name: string) => {
      const key = storageKeyOf(name);
      return key ? deps.storage.stream(key) : Promise.reject(new Error('no such audio'));
    },
  };
}
export type Speaker = ReturnType<typeof createSpeaker>;
