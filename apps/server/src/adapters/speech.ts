import { spawn } from 'node:child_process';
import type { SynthLanguage } from '@kutu/contract/voice-paths';

/** An upload that is no audio Kutu takes, or a decoder that failed on it: the person is told why. */
export class AudioError extends Error {
  override name = 'AudioError';
}

/**
 * eSpeak NG or ffmpeg is not installed (an `npm start` on a machine without them): the voice works without
 * it as far as it can (recorded clips, the gateway's own voice), and the start says so once (voice.jobs.ts).
 */
export class ProgramMissingError extends Error {
  override name = 'ProgramMissingError';
  readonly program: string;
  constructor(program: string) {
    super(`${program} is not installed`);
    this.program = program;
  }
}

/** Audio as Kutu stores and plays it: MP3, with what the decoder measured of it. */
export interface PreparedAudio {
  mp3: Buffer;
  durationMs: number;
  /** Root mean square of the samples, 0 (silence) to 1 (full scale). */
  rms: number;
}

/**
 * The server's voice (docs/decisions/0087): Debian's eSpeak NG reads a text, ffmpeg (Debian's) decodes
 * recordings and writes MP3, the one format both a browser and Africa's Talking's `<Play>` take. Both run
 * as child processes, a few at a time, off the event loop.
 */
export interface Speech {
  /** `text` read by eSpeak NG's voice for `language`, as MP3. */
  synthesize(text: string, language: SynthLanguage): Promise<PreparedAudio>;
  /** A recording decoded (WebM, Ogg, MP4, WAV or MP3, as `sniffAudio` named it), measured, and written as MP3. */
  prepare(audio: Buffer, container: AudioContainer): Promise<PreparedAudio>;
  /** The engine and its version (part of each rendered file's name: a new voice renders them again). */
  version(): Promise<string>;
}

/** Decoding rate: speech needs no more, and MP3 at 22.05 kHz, 32 kbit/s is about 4 KB a second. */
const RATE = 22_050;
const MP3_BITRATE = '32k';
const TIMEOUT_MS = 60_000;
/** A recording is decoded up to this long: a longer one is refused without decoding all of it. */
const DECODE_LIMIT_SECONDS = 600;
/** Voices of eSpeak NG for the languages it speaks here. */
const VOICES: Record<SynthLanguage, string> = { en: 'en', sw: 'sw' };

export const audioContainers = ['matroska', 'ogg', 'mov', 'wav', 'mp3'] as const;
export type AudioContainer = (typeof audioContainers)[number];

/**
 * The container of an upload by its first bytes (never by its name or type header): WebM/Matroska,
 * Ogg, MP4/M4A, WAV or MP3; null for anything else. ffmpeg is then told that demuxer only, so a file
 * that is something else (an image, a playlist naming other files) is never read as such.
 */
export function sniffAudio(bytes: Buffer): AudioContainer | null {
  if (bytes.length < 12) return null;
  if (bytes.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  if (bytes.toString('latin1', 0, 4) === 'OggS') return 'ogg';
  if (bytes.toString('latin1', 4, 8) === 'ftyp') return 'mov';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE') return 'wav';
  if (bytes.toString('latin1', 0, 3) === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe6) === 0xe2)) return 'mp3';
  return null;
}

/** Runs a program with `input` on its standard input; resolves its standard output, rejects on failure. */
function run(command: string, args: string[], input: Buffer, limit: Limiter): Promise<Buffer> {
  return limit(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
        const out: Buffer[] = [];
        let err = '';
        const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
        child.stdout.on('data', (d: Buffer) => out.push(d));
        child.stderr.on('data', (d: Buffer) => {
          err = (err + d.toString()).slice(-2000);
        });
        child.on('error', (e) => {
          clearTimeout(timer);
          reject(
            (e as NodeJS.ErrnoException).code === 'ENOENT'
              ? new ProgramMissingError(command)
              : new Error(`${command} could not start: ${e.message}`),
          );
        });
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          if (code === 0) resolve(Buffer.concat(out));
          else reject(new AudioError(`${command} failed (${signal ?? code}): ${err.trim().split('\n').at(-1) ?? ''}`));
        });
        // A program that stops reading early (a bad file) closes the pipe: that is its exit code's to say.
        child.stdin.on('error', () => {});
        child.stdin.end(input);
      }),
  );
}

type Limiter = <T>(task: () => Promise<T>) => Promise<T>;
/** At most `n` tasks at once; the others wait their turn. */
function limiter(n: number): Limiter {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * The samples of eSpeak NG's WAV (16-bit mono at RATE): what follows its `data` chunk's header. Written to a
 * pipe, the header cannot say the length, so the samples run to the end of the output.
 */
export function wavSamples(wav: Buffer): Buffer {
  const data = wav.indexOf('data', 12, 'latin1');
  if (
    wav.toString('latin1', 0, 4) !== 'RIFF' ||
    data < 0 ||
    wav.readUInt32LE(24) !== RATE ||
    wav.readUInt16LE(22) !== 1
  ) {
    throw new AudioError('eSpeak NG wrote no 16-bit mono WAV at 22.05 kHz');
  }
  const samples = wav.subarray(data + 8);
  return samples.subarray(0, samples.length - (samples.length % 2));
}

/** Length and loudness of 16-bit little-endian mono samples. */
export function measurePcm(pcm: Buffer, rate = RATE): { durationMs: number; rms: number } {
  const samples = Math.floor(pcm.length / 2);
  let sum = 0;
  for (let i = 0; i < samples; i++) {
    const v = pcm.readInt16LE(i * 2) / 32768;
    sum += v * v;
  }
  return { durationMs: Math.round((samples / rate) * 1000), rms: samples ? Math.sqrt(sum / samples) : 0 };
}

export function createSpeech(opts: { espeak?: string; ffmpeg?: string; concurrency?: number } = {}): Speech {
  const espeak = opts.espeak ?? 'espeak-ng';
  const ffmpeg = opts.ffmpeg ?? 'ffmpeg';
  const limit = limiter(opts.concurrency ?? 2);
  const quiet = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
  const toPcm = (container: string) => [
    ...quiet,
    '-f',
    container,
    '-i',
    'pipe:0',
    '-map',
    '0:a:0',
    '-t',
    String(DECODE_LIMIT_SECONDS),
    '-ac',
    '1',
    '-ar',
    String(RATE),
    '-f',
    's16le',
    'pipe:1',
  ];
  const pcmToMp3 = [
    ...quiet,
    ...['-f', 's16le', '-ac', '1', '-ar', String(RATE), '-i', 'pipe:0'],
    ...['-b:a', MP3_BITRATE, '-f', 'mp3', 'pipe:1'],
  ];
  async function fromPcm(pcm: Buffer): Promise<PreparedAudio> {
    const mp3 = await run(ffmpeg, pcmToMp3, pcm, limit);
    return { mp3, ...measurePcm(pcm) };
  }
  let version: Promise<string> | undefined;
  return {
    async synthesize(text, language) {
      // Text on standard input: nothing of it is ever read as an option.
      const wav = await run(espeak, ['-v', VOICES[language], '--stdin', '--stdout'], Buffer.from(text, 'utf8'), limit);
      // eSpeak NG writes 16-bit mono samples at 22.05 kHz: measured as they are, encoded by one ffmpeg.
      return fromPcm(wavSamples(wav));
    },
    async prepare(audio, container) {
      const pcm = await run(ffmpeg, toPcm(container), audio, limit);
      return fromPcm(pcm);
    },
    version() {
      version ??= run(espeak, ['--version'], Buffer.alloc(0), limit).then((out) =>
        `espeak-ng ${out.toString().match(/:\s*([\d.]+)/)?.[1] ?? ''}`.trim(),
      );
      return version;
    },
  };
}
