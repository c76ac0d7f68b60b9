import { execFileSync } from 'node:child_process';

/**
 * Audio made by Debian's ffmpeg for the voice tests, as a browser's recorder or a person's file would
 * bring it: `source` is one of ffmpeg's lavfi sources (`sine=frequency=220:duration=2`, `anullsrc`).
 */
export function audioFile(source: string, format: 'webm' | 'wav' | 'mp3' | 'ogg', seconds?: number): Buffer {
  const codec = { webm: ['-c:a', 'libopus'], ogg: ['-c:a', 'libopus'], wav: [], mp3: ['-b:a', '32k'] }[format];
  return execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', source],
      ...(seconds ? ['-t', String(seconds)] : []),
      ...codec,
      ...['-ac', '1', '-f', format, 'pipe:1'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
}

/** A tone of `seconds` as the browser's MediaRecorder sends it (WebM, Opus). */
export const toneWebm = (seconds: number, frequency = 220) =>
  audioFile(`sine=frequency=${frequency}:duration=${seconds}`, 'webm');
