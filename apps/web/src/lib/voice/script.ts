import type { TFunction } from 'i18next';
import type { Language, VoicePack } from '@kutu/contract';
import type { TextRef } from '@kutu/contract/result-text';
import { nativeNames } from '@kutu/contract/enums';
import { adviceVoiceText, isSynthLanguage, type SynthLanguage } from '@kutu/contract/voice-paths';
import { say } from '../diagnosis-labels.ts';

/**
 * A part of what a Listen button reads: a catalogue text (said in any language), an advice entry as the
 * screen shows it, or words as someone wrote them (an expert's note: said only in the language on screen).
 */
export type SpokenPart =
  | { ref: TextRef }
  | { advice: { headline: string; steps: readonly string[] } }
  | { text: string };

/** One thing to play: an approved recording, or text for the synthetic voice. */
export type Utterance = { clip: string } | { synth: SynthLanguage; text: string };

/** A language's voice: its texts (i18next fixed to it) and what the phone keeps of it (recordings, advice). */
export interface Voice {
  language: Language;
  t: TFunction;
  pack: VoicePack | null;
}

function textOf(part: SpokenPart, t: TFunction): string | null {
  if ('ref' in part) return say(t, part.ref);
  if ('advice' in part) return adviceVoiceText(part.advice);
  return part.text;
}

/** The same part in another language: a catalogue text in its words, an advice entry by its topic and crop. */
function translated(part: SpokenPart, reader: Voice, other: Voice): string | null {
  if ('ref' in part) return say(other.t, part.ref);
  if (!('advice' in part)) return null;
  const shown = adviceVoiceText(part.advice);
  const entry = reader.pack?.advice.find((a) => adviceVoiceText(a) === shown);
  const theirs = entry && other.pack?.advice.find((a) => a.topic === entry.topic && a.crop === entry.crop);
  return theirs ? adviceVoiceText(theirs) : null;
}

/**
 * What a Listen says, in order (docs/decisions/0087): each part in the reader's language, as its approved
 * recording where one reads these very words, else the synthetic voice. A language without one
 * (VOICE_LANGUAGES; Luganda today): a part without a recording is said in `fallback` (a synthetic voice),
 * after a sentence, once, that says so.
 */
export function utterances(parts: SpokenPart[], reader: Voice, fallback: Voice | null): Utterance[] {
  const out: Utterance[] = [];
  let told = false;
  for (const part of parts) {
    const text = textOf(part, reader.t);
    if (!text) continue;
    const clip = reader.pack?.clips.find((c) => c.text === text);
    if (clip) out.push({ clip: clip.audio_url });
    else if (isSynthLanguage(reader.language)) out.push({ synth: reader.language, text });
    else if (fallback && isSynthLanguage(fallback.language)) {
      const instead = translated(part, reader, fallback);
      if (!instead) continue;
      if (!told)
        out.push({
          synth: fallback.language,
          text: fallback.t('listen.saidInstead', { language: nativeNames[reader.language] }),
        });
      told = true;
      out.push({ synth: fallback.language, text: instead });
    }
  }
  return out;
}
