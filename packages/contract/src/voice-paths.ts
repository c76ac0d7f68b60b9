/**
 * Spoken answers (docs/decisions/0087) without zod (`@kutu/contract/voice-paths`): the Listen button and
 * the phone's voice code use these without downloading the schemas. voice.ts re-exports them.
 */

/** The largest clip an expert may upload, and how long it may be (the server decodes it to check). */
export const VOICE_CLIP_MAX_BYTES = 2 * 1024 * 1024;
export const VOICE_CLIP_MAX_SECONDS = 120;
export const VOICE_CLIP_MIN_SECONDS = 1;

/** The languages a synthetic voice speaks, on the phone and on the server (eSpeak NG); Luganda has none. */
export const SYNTH_LANGUAGES = ['en', 'sw'] as const;
export type SynthLanguage = (typeof SYNTH_LANGUAGES)[number];

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
