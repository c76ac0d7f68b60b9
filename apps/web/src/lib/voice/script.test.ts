import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { AdviceItem, Language, VoicePack } from '@kutu/contract';
import { adviceVoiceText } from '@kutu/contract/voice-paths';
import english from '../locales/en.json';
import kiswahili from '../locales/sw.json';
import luganda from '../locales/lg.json';
import { type SpokenPart, utterances, type Voice } from './script.ts';
import { pieces } from './voice-messages.ts';

const catalogues = { en: english, sw: kiswahili, lg: luganda };
const i18n = i18next.createInstance();
await i18n.init({
  resources: Object.fromEntries(Object.entries(catalogues).map(([l, c]) => [l, { translation: c }])),
  lng: 'en',
  interpolation: { escapeValue: false },
});

const entry = (language: Language, headline: string, steps: string[]): AdviceItem => ({
  id: 1,
  topic: 'common_rust',
  crop: 'maize',
  language,
  headline,
  steps,
  more: [],
  sources: [],
  updated_at: '2026-11-27T00:00:00Z',
});
const advice = {
  en: entry('en', 'Treat the rust', ['Spray.', 'Remove bad leaves.', 'Check in 7 days.']),
  sw: entry('sw', 'Tibu kutu', ['Nyunyizia.', 'Ondoa majani.', 'Kagua baada ya siku 7.']),
  lg: entry('lg', 'Jjanjaba kutu', ['Fuuyira.', 'Ggyawo ebikoola.', 'Kebera oluvannyuma lw’ennaku 7.']),
};
const pack = (language: Language, clips: { key: string; text: string }[] = []): VoicePack => ({
  language,
  advice: [advice[language]],
  clips: clips.map((c, i) => ({
    id: i + 1,
    ...c,
    bytes: 8000,
    duration_ms: 2000,
    audio_url: `/api/voice/clips/${i + 1}/audio/`,
  })),
});
const voice = (language: Language, p: VoicePack | null = pack(language)): Voice => ({
  language,
  t: i18n.getFixedT(language),
  pack: p,
});

const heading = { ref: { key: 'analysis.result.heading.rust_maize' } };
const adviceOf = (l: Language): SpokenPart => ({ advice: advice[l] });
const t = (l: Language, key: string, params: Record<string, string> = {}) => i18n.getFixedT(l)(key, params);
const instead = { language: 'Luganda' };

describe('what a Listen says', () => {
  it('reads English and Kiswahili with the synthetic voice, each in its own words', () => {
    expect(utterances([heading, adviceOf('sw')], voice('sw'), null)).toEqual([
      { synth: 'sw', text: t('sw', 'analysis.result.heading.rust_maize') },
      { synth: 'sw', text: adviceVoiceText(advice.sw) },
    ]);
  });

  it('plays an approved recording that reads the very words shown, and not one of other words', () => {
    const recorded = pack('en', [{ key: 'advice:common_rust:maize', text: adviceVoiceText(advice.en) }]);
    expect(utterances([heading, adviceOf('en')], voice('en', recorded), null)).toEqual([
      { synth: 'en', text: t('en', 'analysis.result.heading.rust_maize') },
      { clip: '/api/voice/clips/1/audio/' },
    ]);
    const outdated = pack('en', [{ key: 'advice:common_rust:maize', text: 'Treat the rust\nSpray.' }]);
    expect(utterances([adviceOf('en')], voice('en', outdated), null)).toEqual([
      { synth: 'en', text: adviceVoiceText(advice.en) },
    ]);
  });

  it('gives a Luganda reader the Luganda recordings, and the rest in the chosen voice, said as such once', () => {
    const lg = pack('lg', [
      { key: 'analysis.result.heading.rust_maize', text: t('lg', 'analysis.result.heading.rust_maize') },
    ]);
    const said = utterances(
      [heading, adviceOf('lg'), { text: 'Omukugu: fuuyira enkya.' }],
      voice('lg', lg),
      voice('sw'),
    );
    expect(said).toEqual([
      { clip: '/api/voice/clips/1/audio/' },
      { synth: 'sw', text: t('sw', 'listen.saidInstead', instead) },
      // The Kiswahili advice of the same topic and crop; the expert's own words have no Kiswahili.
      { synth: 'sw', text: adviceVoiceText(advice.sw) },
    ]);
    expect(t('sw', 'listen.saidInstead', instead)).toMatch(/Kiswahili/);
    expect(utterances([heading], voice('lg', pack('lg')), voice('en'))).toEqual([
      { synth: 'en', text: t('en', 'listen.saidInstead', instead) },
      { synth: 'en', text: t('en', 'analysis.result.heading.rust_maize') },
    ]);
  });

  it('speaks from nothing kept on the phone: English and Kiswahili need no pack', () => {
    expect(utterances([heading], voice('en', null), null)).toEqual([
      { synth: 'en', text: t('en', 'analysis.result.heading.rust_maize') },
    ]);
  });

  it('reads sentence by sentence, so the first sounds before the rest are read', () => {
    expect(pieces('Treat the rust\nSpray now. Then wait!  Check in 7 days.')).toEqual([
      'Treat the rust',
      'Spray now.',
      'Then wait!',
      'Check in 7 days.',
    ]);
  });
});
