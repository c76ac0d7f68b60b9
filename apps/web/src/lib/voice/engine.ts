import engineUrl from '@echogarden/espeak-ng-emscripten/espeak-ng.js?url';
import type { SynthLanguage } from '@kutu/contract/voice-paths';
import dataUrl from '../../../generated/voice/espeak-ng-en-sw.data?url';
import type { VoiceReply } from './voice-messages.ts';

/**
 * The phone's synthetic voice (docs/decisions/0087): English and Kiswahili by eSpeak NG in a worker.
 * Its two files (the engine, the languages' data) download on the first Listen, and the service worker
 * keeps them (hashed files under /assets/), so the voice speaks offline from then on.
 */

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (reply: VoiceReply) => void>();
const progress = new Set<(fraction: number) => void>();

function voiceWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./voice.worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (event: MessageEvent<VoiceReply>) => {
    const reply = event.data;
    if (reply.type === 'progress') {
      for (const l of progress) l(Math.min(1, reply.received / __VOICE_DATA_BYTES__));
      return;
    }
    waiting.get(reply.id)?.(reply);
  };
  worker.onerror = (event) => {
    for (const [id, answer] of waiting) answer({ type: 'error', id, message: event.message });
    worker?.terminate();
    worker = null;
  };
  return worker;
}

/** Reports the voice's first download, 0 to 1; returns a function that stops reporting. */
export function onVoiceDownload(listener: (fraction: number) => void): () => void {
  progress.add(listener);
  return () => progress.delete(listener);
}

/**
 * Reads `text` in `language`: `onPiece` gets each sentence's samples (16-bit, mono) in order as soon as
 * it is read; resolves after the last one. Rejects when the voice cannot be loaded (offline before its
 * first use) or fails.
 */
export function synthesize(
  language: SynthLanguage,
  text: string,
  onPiece: (samples: Int16Array, rate: number) => void,
): Promise<void> {
  const id = nextId++;
  return new Promise<void>((resolve, reject) => {
    waiting.set(id, (reply) => {
      if (reply.type === 'error') {
        waiting.delete(id);
        reject(new Error(reply.message));
      } else if (reply.type === 'audio') {
        onPiece(reply.samples, reply.rate);
        if (reply.last) {
          waiting.delete(id);
          resolve();
        }
      }
    });
    voiceWorker().postMessage({ type: 'speak', id, language, text, engineUrl, dataUrl });
  });
}
