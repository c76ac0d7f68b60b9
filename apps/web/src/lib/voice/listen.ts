import type { Language } from '@kutu/contract';
import { isSynthLanguage, type SynthLanguage } from '@kutu/contract/voice-paths';
import i18n from '../i18n.ts';
import { synthesize, onVoiceDownload } from './engine.ts';
import { clipAudio, voicePack } from './pack.ts';
import { type SpokenPart, utterances, type Voice } from './script.ts';

/** Silence between two pieces: a sentence's end and a recording's. */
const GAP_SECONDS = 0.3;

async function voiceOf(language: Language): Promise<Voice> {
  await i18n.loadLanguages(language).catch(() => undefined);
  return { language, t: i18n.getFixedT(language), pack: await voicePack(language) };
}

function pcmBuffer(ctx: AudioContext, samples: Int16Array, rate: number): AudioBuffer {
  const buffer = ctx.createBuffer(1, Math.max(1, samples.length), rate);
  const channel = buffer.getChannelData(0);
  for (let i = 0; i < samples.length; i++) channel[i] = samples[i]! / 32768;
  return buffer;
}

export interface Listening {
  stop(): void;
  /** Resolves once everything was said (or it was stopped). */
  done: Promise<void>;
}

/**
 * Says `parts` through `ctx` (made by the tap, so the phone lets it sound): each piece is scheduled right
 * after the one before as soon as it is ready, so the first sentence sounds while the rest are read or
 * downloaded. `fallback`: the voice the reader of a language without one (VOICE_LANGUAGES) chose for what has no recording.
 */
export async function listen(
  parts: SpokenPart[],
  ctx: AudioContext,
  opts: { language: Language; fallback: SynthLanguage | null; onDownload(fraction: number): void; onSound(): void },
): Promise<Listening> {
  const [reader, fallback] = await Promise.all([
    voiceOf(opts.language),
    opts.fallback && !isSynthLanguage(opts.language) ? voiceOf(opts.fallback) : null,
  ]);
  const said = utterances(parts, reader, fallback);
  let stopped = false;
  let wake = () => {};
  let at = 0;
  const sources: AudioBufferSourceNode[] = [];
  const schedule = (buffer: AudioBuffer) => {
    if (stopped) return;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    const start = Math.max(at, ctx.currentTime + 0.05);
    source.start(start);
    if (sources.length === 0) opts.onSound();
    sources.push(source);
    at = start + buffer.duration + GAP_SECONDS;
  };
  const stopDownload = onVoiceDownload(opts.onDownload);
  const done = (async () => {
    try {
      for (const u of said) {
        if (stopped) return;
        if ('clip' in u) schedule(await ctx.decodeAudioData(await clipAudio(u.clip)));
        else await synthesize(u.synth, u.text, (samples, rate) => schedule(pcmBuffer(ctx, samples, rate)));
      }
    } finally {
      stopDownload();
    }
    // Until the last piece has sounded.
    const left = at - GAP_SECONDS - ctx.currentTime;
    if (!stopped && left > 0) {
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, left * 1000);
      });
    }
  })();
  return {
    stop() {
      stopped = true;
      for (const s of sources) s.stop();
      wake();
    },
    done,
  };
}
