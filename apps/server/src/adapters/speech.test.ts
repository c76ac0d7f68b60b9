import { describe, expect, it } from 'vitest';
import { audioFile, toneWebm } from '../../test/support/audio.ts';
import { AudioError, createSpeech, measurePcm, sniffAudio } from './speech.ts';

describe('the server voice: eSpeak NG and ffmpeg', () => {
  const speech = createSpeech();

  it('reads English and Kiswahili aloud as MP3 of a length that follows the text', async () => {
    const short = await speech.synthesize('Signs of rust.', 'en');
    const long = await speech.synthesize(
      'Signs of rust. Spray a fungicide as an agro-dealer advises, remove badly hit leaves, and check again in seven days.',
      'en',
    );
    const sw = await speech.synthesize('Dalili za kutu. Nyunyizia dawa ya kuvu.', 'sw');
    for (const a of [short, long, sw]) {
      expect(sniffAudio(a.mp3)).toBe('mp3');
      expect(a.rms).toBeGreaterThan(0.02);
    }
    expect(short.durationMs).toBeGreaterThan(500);
    expect(long.durationMs).toBeGreaterThan(short.durationMs * 3);
    // Decoding its own MP3 again gives back about the length it measured.
    const again = await speech.prepare(long.mp3, 'mp3');
    expect(Math.abs(again.durationMs - long.durationMs)).toBeLessThan(200);
    expect(await speech.version()).toMatch(/^espeak-ng \d+\.\d+/);
  });

  it('knows recordings by their first bytes, whatever they are called', () => {
    expect(sniffAudio(toneWebm(1))).toBe('matroska');
    expect(sniffAudio(audioFile('sine=duration=1', 'ogg'))).toBe('ogg');
    expect(sniffAudio(audioFile('sine=duration=1', 'wav'))).toBe('wav');
    expect(sniffAudio(audioFile('sine=duration=1', 'mp3'))).toBe('mp3');
    expect(sniffAudio(Buffer.from('\x89PNG\r\n\x1a\n0000000000000000', 'latin1'))).toBeNull();
    expect(sniffAudio(Buffer.from('#EXTM3U\nfile:///etc/passwd\n'))).toBeNull();
  });

  it('measures a recording it decodes, and refuses bytes that are not what they claim to be', async () => {
    const tone = await speech.prepare(toneWebm(2), 'matroska');
    expect(tone.durationMs).toBeGreaterThan(1900);
    expect(tone.durationMs).toBeLessThan(2100);
    // lavfi's sine peaks at 1/8 of full scale: a root mean square of 0.088.
    expect(tone.rms).toBeGreaterThan(0.05);
    const quiet = await speech.prepare(audioFile('anullsrc=r=48000:cl=mono', 'wav', 2), 'wav');
    expect(quiet.rms).toBe(0);
    const fake = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(500, 7)]);
    await expect(speech.prepare(fake, 'matroska')).rejects.toBeInstanceOf(AudioError);
  });

  it('measures 16-bit samples', () => {
    const pcm = Buffer.alloc(22_050 * 2);
    for (let i = 0; i < 22_050; i++) pcm.writeInt16LE(i % 2 ? 16384 : -16384, i * 2);
    expect(measurePcm(pcm)).toEqual({ durationMs: 1000, rms: 0.5 });
  });
});
