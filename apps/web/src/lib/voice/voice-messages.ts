import type { SynthLanguage } from '@kutu/contract/voice-paths';

/** What the page asks the voice worker (voice.worker.ts): read `text` in `language`. */
export interface VoiceRequest {
  type: 'speak';
  id: number;
  language: SynthLanguage;
  text: string;
  /** The engine's script and its English and Kiswahili data, as the build named them. */
  engineUrl: string;
  dataUrl: string;
}

/** What the worker answers: download progress of the voice, each piece's samples, or why it failed. */
export type VoiceReply =
  | { type: 'progress'; received: number; total: number }
  | { type: 'audio'; id: number; index: number; last: boolean; samples: Int16Array; rate: number }
  | { type: 'error'; id: number; message: string };

/** Pieces that each make one sound: sentences and lines, so the first plays before the rest are read. */
export const pieces = (text: string): string[] =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
