/**
 * Spoken answers (docs/decisions/0087) without zod (`@kutu/contract/voice-paths`): the Listen button and
 * the phone's voice code use these without downloading the schemas. voice.ts re-exports them.
 */
import type { Language } from './enums.ts';

/** The largest clip an expert may upload, and how long it may be (the server decodes it to check). */
export const VOICE_CLIP_MAX_BYTES = 2 * 1024 * 1024;
export const VOICE_CLIP_MAX_SECONDS = 120;
export const VOICE_CLIP_MIN_SECONDS = 1;

/**
 * Every language Kutu speaks, in the order of the phone call's language menu (key 1, 2, 3…), and how: with
 * `synth`, a synthetic voice speaks it (eSpeak NG on the server, the same engine on the phone); without, its
 * approved recordings play and the rest is said in `fallback` (a synthetic one) after a sentence that says
 * so. The Listen button, the server's speaker and the call menu all read this list (docs/languages.md).
 */
export const VOICE_LANGUAGES = [
  { language: 'en', synth: true },
  { language: 'sw', synth: true },
  { language: 'lg', synth: false, fallback: 'en' },
] as const satisfies readonly (
  | { language: Language; synth: true }
  | { language: Language; synth: false; fallback: Language }
)[];

/** A language with a synthetic voice. */
export type SynthLanguage = Extract<(typeof VOICE_LANGUAGES)[number], { synth: true }>['language'];

/** The languages a synthetic voice speaks, on the phone and on the server. */
export const SYNTH_LANGUAGES: readonly SynthLanguage[] = VOICE_LANGUAGES.flatMap((v) =>
  v.synth ? [v.language as SynthLanguage] : [],
);

export const isSynthLanguage = (language: string): language is SynthLanguage =>
  (SYNTH_LANGUAGES as readonly string[]).includes(language);

/** The call's language menu: key 1 for the first language, and so on. */
export const CALL_MENU: readonly Language[] = VOICE_LANGUAGES.map((v) => v.language);

/** The synthetic voice that says what a language without one has no recording of (English by default). */
export function voiceFallbackOf(language: Language): SynthLanguage {
  const entry = VOICE_LANGUAGES.find((v) => v.language === language);
  const fallback = entry && !entry.synth ? entry.fallback : 'en';
  return isSynthLanguage(fallback) ? fallback : 'en';
}

/** A recorded text's key for an advice entry (its topic and crop): the same on the phone and the server. */
export const adviceVoiceKey = (topic: string, crop: string) => `advice:${topic}:${crop}`;

/**
 * What an advice entry sounds like read out, and what a recording of it reads: the headline, then each
 * step, one per line. A clip is played only while its text is still this text (versioned by its words).
 */
export const adviceVoiceText = (advice: { headline: string; steps: readonly string[] }) =>
  [advice.headline, ...advice.steps].join('\n');

export const voiceApi = {
  /** GET (expert, admin) `?language`: the texts the server speaks that may be recorded (advice, the call's sentences). */
  texts: '/api/voice/texts/',
  /** GET (expert, admin) `?language&state&page`: recorded clips; POST (expert, admin) multipart: a new clip. */
  clips: '/api/voice/clips/',
  clipAudio: '/api/voice/clips/:id/audio/',
  clipAudioPath: (id: number) => `/api/voice/clips/${id}/audio/`,
  /** POST (expert, admin; not the person who recorded it): approve or reject a clip. */
  clipDecision: '/api/voice/clips/:id/decision/',
  clipDecisionPath: (id: number) => `/api/voice/clips/${id}/decision/`,
  /** GET (signed in) `?language`: the approved clips and the advice texts of a language, kept on the phone. */
  pack: '/api/voice/pack/',
  /** POST from the gateway (form): Africa's Talking's voice callback; answers XML. */
  call: '/api/phone/voice/',
  /** GET from the gateway: a rendered sentence or clip for `<Play>` (signed name). */
  callAudio: '/api/phone/voice/audio/:name',
} as const;
