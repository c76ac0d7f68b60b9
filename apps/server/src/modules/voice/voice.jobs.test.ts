import { describe, expect, it } from 'vitest';
import { createSpeech } from '../../adapters/speech.ts';
import { warmVoice } from './voice.jobs.ts';

/** A log that keeps what it is told. */
function keptLog() {
  const lines: { level: string; text: string }[] = [];
  const keep = (level: string) => (a: unknown, b?: unknown) =>
    void lines.push({ level, text: String(typeof a === 'string' ? a : b) });
  return { lines, log: { info: keep('info'), warn: keep('warn') } as never };
}

describe('rendering the call ahead without eSpeak NG', () => {
  it('says once, plainly, what the voice does without it, and the job does not fail', async () => {
    // The real adapter, pointed at a program that is not there: what a machine without espeak-ng does.
    const speech = createSpeech({ espeak: 'kutu-no-such-espeak-ng' });
    const voice = { warm: async () => (await speech.synthesize('Signs of rust.', 'en')).durationMs };
    const { lines, log } = keptLog();
    await expect(warmVoice(voice, log)).resolves.toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe('warn');
    expect(lines[0]!.text).toMatch(/kutu-no-such-espeak-ng is not installed/);
    expect(lines[0]!.text).toMatch(/recorded clips/);
    expect(lines[0]!.text).not.toMatch(/ENOENT/);
  });

  it('still fails on any other error, for the queue to retry and log', async () => {
    const { log } = keptLog();
    await expect(warmVoice({ warm: () => Promise.reject(new Error('storage down')) }, log)).rejects.toThrow(
      'storage down',
    );
  });
});
