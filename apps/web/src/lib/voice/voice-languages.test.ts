import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import type { Language } from '@kutu/contract';
import english from '../locales/en.json';
import kiswahili from '../locales/sw.json';
import luganda from '../locales/lg.json';
import { utterances, type Voice } from './script.ts';

// Luganda given a synthetic voice and Kiswahili none, in the one list (VOICE_LANGUAGES): the Listen button's
// script must follow the list, never a language named by hand.
vi.mock(import('@kutu/contract/voice-paths'), async (original) => {
  const real = await original();
  return {
    ...real,
    SYNTH_LANGUAGES: ['en', 'lg'] as unknown as typeof real.SYNTH_LANGUAGES,
    isSynthLanguage: ((l: string) => l === 'en' || l === 'lg') as typeof real.isSynthLanguage,
  };
});

const i18n = i18next.createInstance();
await i18n.init({
  resources: { en: { translation: english }, sw: { translation: kiswahili }, lg: { translation: luganda } },
  lng: 'en',
  interpolation: { escapeValue: false },
});
const voice = (language: Language): Voice => ({ language, t: i18n.getFixedT(language), pack: null });
const heading = { ref: { key: 'analysis.result.heading.rust_maize' } };

describe('the Listen button speaks the languages of one list', () => {
  it('speaks a language the list gives a voice, Luganda here, in that voice', () => {
    expect(utterances([heading], voice('lg'), voice('en'))).toEqual([
      { synth: 'lg', text: i18n.getFixedT('lg')('analysis.result.heading.rust_maize') },
    ]);
  });

  it('says a language the list gives no voice, Kiswahili here, in the fallback after saying so', () => {
    const said = utterances([heading], voice('sw'), voice('en'));
    expect(said[0]).toEqual({
      synth: 'en',
      text: i18n.getFixedT('en')('listen.saidInstead', { language: 'Kiswahili' }),
    });
    expect(said[1]).toEqual({ synth: 'en', text: i18n.getFixedT('en')('analysis.result.heading.rust_maize') });
  });
});
