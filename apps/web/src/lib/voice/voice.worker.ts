/// <reference lib="webworker" />
// The phone's voice, off the main thread (docs/decisions/0087): eSpeak NG compiled to WebAssembly
// (@echogarden/espeak-ng-emscripten, GPL-3.0, loaded as its own file, as shipped) reads text sentence by
// sentence and posts each sentence's samples as soon as it is done, so the first one plays while the rest
// are read. The engine's data package is built from the English and Kiswahili files only
// (scripts/voice-data.ts); the other languages' files stay empty.
import { pieces, type VoiceReply, type VoiceRequest } from './voice-messages.ts';

interface EngineWorker {
  set_voice(name: string): number;
  set_rate(wordsPerMinute: number): void;
  get_samplerate(): number;
  synthesize(text: string, callback: (samples: Int16Array) => boolean): void;
}
type EngineFactory = (module: { getPreloadedPackage: () => ArrayBuffer }) => Promise<{
  eSpeakNGWorker: new () => EngineWorker;
}>;

declare const self: DedicatedWorkerGlobalScope;
const post = (reply: VoiceReply, transfer: Transferable[] = []) => self.postMessage(reply, transfer);

/** A little slower than eSpeak's 175 words a minute: clearer on a phone's speaker and for a new listener. */
const RATE = 150;

/** The engine's package: the files the voice reads at their places, the rest left as zeros. */
async function fetchPackage(url: string): Promise<ArrayBuffer> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`voice data: HTTP ${res.status}`);
  const total = Number(res.headers.get('content-length') ?? 0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    post({ type: 'progress', received, total });
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  const headLength = new DataView(bytes.buffer).getUint32(0, true);
  const index = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headLength))) as {
    packageSize: number;
    files: { start: number; end: number }[];
  };
  const pkg = new Uint8Array(index.packageSize);
  let from = 4 + headLength;
  for (const f of index.files) {
    pkg.set(bytes.subarray(from, from + f.end - f.start), f.start);
    from += f.end - f.start;
  }
  return pkg.buffer;
}

let engine: Promise<EngineWorker> | null = null;
async function start(engineUrl: string, dataUrl: string): Promise<EngineWorker> {
  const [factory, pkg] = await Promise.all([
    import(/* @vite-ignore */ engineUrl).then((m: { default: EngineFactory }) => m.default),
    fetchPackage(dataUrl),
  ]);
  const module = await factory({ getPreloadedPackage: () => pkg });
  const worker = new module.eSpeakNGWorker();
  worker.set_rate(RATE);
  return worker;
}

self.onmessage = async (event: MessageEvent<VoiceRequest>) => {
  const request = event.data;
  if (request.type !== 'speak') return;
  try {
    engine ??= start(request.engineUrl, request.dataUrl);
    const voice = await engine.catch((err: unknown) => {
      engine = null;
      throw err;
    });
    voice.set_voice(request.language);
    const rate = voice.get_samplerate();
    const parts = pieces(request.text);
    for (const [index, piece] of parts.entries()) {
      const chunks: Int16Array[] = [];
      voice.synthesize(piece, (samples) => {
        chunks.push(samples);
        return false;
      });
      const samples = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of chunks) {
        samples.set(c, at);
        at += c.length;
      }
      post({ type: 'audio', id: request.id, index, last: index === parts.length - 1, samples, rate }, [samples.buffer]);
    }
    if (parts.length === 0)
      post({ type: 'audio', id: request.id, index: 0, last: true, samples: new Int16Array(0), rate });
  } catch (err) {
    post({ type: 'error', id: request.id, message: err instanceof Error ? err.message : String(err) });
  }
};
