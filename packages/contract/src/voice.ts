import { z } from 'zod';
import { adviceItem } from './analysis.ts';
import { idParam, isoDateTime, pageQuery, paginated } from './common.ts';
import { languages } from './enums.ts';

export * from './voice-paths.ts';

/** A recording waits for a second person, who approves it (played to farmers) or rejects it. */
export const voiceClipStates = ['pending', 'approved', 'rejected'] as const;
export type VoiceClipState = (typeof voiceClipStates)[number];

const voiceLanguage = z.enum(languages);

/** What a recording reads: a key (`advice:rust:maize`, `call.menu`, a result sentence's catalogue key). */
export const voiceKey = z
  .string()
  .trim()
  .regex(/^[a-z][\w.:-]{1,119}$/i, 'Choose a text to record');

/** A text the server speaks that a person may record (advice entries, the phone call's sentences). */
export const voiceText = z.object({
  key: voiceKey,
  kind: z.enum(['advice', 'call']),
  text: z.string(),
});
export const voiceTextQuery = z.object({ language: voiceLanguage });
export const voiceTextList = z.object({ results: z.array(voiceText) });
export type VoiceText = z.infer<typeof voiceText>;
export type VoiceTextList = z.infer<typeof voiceTextList>;

/** The form fields of a new clip (the audio goes in the field `audio`). */
export const voiceClipFields = z.object({
  key: voiceKey,
  language: voiceLanguage,
  text: z.string().trim().min(2, 'The text read is missing').max(3000, 'The text is too long to record'),
});
export type VoiceClipFields = z.infer<typeof voiceClipFields>;

export const voiceClip = z.object({
  id: z.number().int(),
  key: z.string(),
  language: voiceLanguage,
  text: z.string().describe('The words the clip reads; it plays only while the text it stands for is still this'),
  state: z.enum(voiceClipStates),
  bytes: z.number().int().describe('Size of the stored audio (MP3)'),
  duration_ms: z.number().int(),
  recorded_by: z.string(),
  mine: z.boolean().describe('The caller recorded it (and so may not approve it)'),
  decided_by: z.string().nullable(),
  created_at: isoDateTime,
  decided_at: isoDateTime.nullable(),
  audio_url: z.string(),
});
export type VoiceClip = z.infer<typeof voiceClip>;
export const voiceClipQuery = pageQuery.extend({
  language: voiceLanguage,
  state: z.enum([...voiceClipStates, 'all']).default('all'),
});
export type VoiceClipQuery = z.infer<typeof voiceClipQuery>;
export const voiceClipPage = paginated(voiceClip);
export type VoiceClipPage = z.infer<typeof voiceClipPage>;
export const voiceClipParams = idParam;
export const voiceClipDecision = z.object({ approve: z.boolean() });

/** One approved clip as the phone keeps it. */
export const packClip = voiceClip.pick({
  id: true,
  key: true,
  text: true,
  bytes: true,
  duration_ms: true,
  audio_url: true,
});
export type PackClip = z.infer<typeof packClip>;

/**
 * What the phone keeps of a language to speak offline: its approved clips (each still reading its text)
 * and its advice texts (a Luganda reader hears the English or Kiswahili advice while no clip exists).
 */
export const voicePack = z.object({
  language: voiceLanguage,
  clips: z.array(packClip),
  advice: z.array(adviceItem),
});
export type VoicePack = z.infer<typeof voicePack>;
export const voicePackQuery = z.object({ language: voiceLanguage });

/** Africa's Talking's voice callback (form fields as the gateway names them; others are ignored). */
export const voiceCallbackBody = z.object({
  sessionId: z.string().min(1).max(100),
  /** `1` while the call is on; `0` in the last request, with the duration and cost. */
  isActive: z.string().max(5).default('1'),
  direction: z.string().max(20).optional(),
  /** The phone user's number, inbound or outbound. */
  callerNumber: z.string().max(30).default(''),
  destinationNumber: z.string().max(30).optional(),
  dtmfDigits: z.string().max(20).optional(),
  durationInSeconds: z.string().max(20).optional(),
});
export type VoiceCallbackBody = z.infer<typeof voiceCallbackBody>;
/** Where the call is: which key press this request answers (the GetDigits callback's query). */
export const voiceCallQuery = z.object({
  key: z.string().max(200).optional(),
  step: z.enum(['language', 'after']).optional(),
  lang: voiceLanguage.optional(),
});
export const voiceAudioParams = z.object({ name: z.string().regex(/^[\w-]{8,100}\.mp3$/) });
export const voiceAudioQuery = z.object({ sig: z.string().max(100).default('') });
