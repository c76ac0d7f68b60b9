import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CALL_MENU, isSynthLanguage, languages, VOICE_LANGUAGES } from '@kutu/contract';
import { analyses } from '../../db/schema/index.ts';
import { t as say } from '../../i18n/i18n.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { placeCall } from '../../../test/support/voice-gateway.ts';

// Kiswahili listed as a language without a synthetic voice (falling back on English), as a language added to
// VOICE_LANGUAGES without one would be: the speaker and the call must read the list, never a language by hand.
vi.mock(import('@kutu/contract/voice-paths'), async (original) => {
  const real = await original();
  const list = [
    { language: 'en', synth: true },
    { language: 'sw', synth: false, fallback: 'en' },
    { language: 'lg', synth: false, fallback: 'en' },
  ];
  return {
    ...real,
    VOICE_LANGUAGES: list as unknown as typeof real.VOICE_LANGUAGES,
    SYNTH_LANGUAGES: ['en'] as const,
    isSynthLanguage: ((l: string) => l === 'en') as typeof real.isSynthLanguage,
    voiceFallbackOf: () => 'en' as const,
  };
});

const KEY = 'gateway-secret-for-the-voice-languages-test';

describe('the voice languages come from one list (VOICE_LANGUAGES)', { timeout: 180_000 }, () => {
  let t: TestContext;
  let farmer: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { AT_CALLBACK_SECRET: KEY, PHONE_RATE_LIMIT_MAX: '10000' } });
    farmer = await createUser(t, 'farmer');
    await t.deps.database.db.insert(analyses).values({
      userId: farmer.id,
      imagePath: 'x.jpg',
      outcome: 'diagnosis',
      rustClass: 'common_rust',
      confidence: 0.96,
      probabilities: { common_rust: 0.96, healthy: 0.02, other_disease: 0.02 },
      modelVersion: 'test',
      crop: 'maize',
    });
  });
  afterAll(() => t.close());

  it('lists every language of the app once, in the call menu, each spoken or falling back on a voice', () => {
    expect([...CALL_MENU].sort()).toEqual([...languages].sort());
    for (const v of VOICE_LANGUAGES) expect(v.synth || isSynthLanguage(v.fallback)).toBe(true);
    // Each language's menu option names the key of its place in the list.
    for (const [i, lang] of CALL_MENU.entries()) expect(say(lang, 'voice.call.choose')).toContain(String(i + 1));
  });

  it('says a language without a voice in its fallback on the call, after saying so, as it does Luganda', async () => {
    const call = (keys: string[]) => placeCall(t, { from: farmer.phone, keys, key: KEY });
    const english = (await call(['1']))[1]!;
    const kiswahili = (await call(['2']))[1]!;
    // Played where the speech tools render it, else said by the gateway's voice: in order either way.
    const heard = (step: typeof english) => [...step.played, ...step.said];
    // First "no Kiswahili recording yet", in English, once; then the English sentences.
    expect(heard(kiswahili)).toHaveLength(heard(english).length + 1);
    expect(heard(kiswahili).slice(1)).toEqual(heard(english));
    if (kiswahili.said.length > english.said.length) expect(kiswahili.said[0]).toMatch(/no Kiswahili recording/);
  });

  it('tells a caller without an account in each language a synthetic voice speaks, none by hand', async () => {
    const [step] = await placeCall(t, { from: '+256772999001', keys: [], key: KEY });
    const heard = [...step!.played, ...step!.said];
    // English only here (Kiswahili has no voice in this list): one sentence, no "no recording" before it.
    expect(heard).toHaveLength(1);
    if (step!.said.length) expect(step!.said[0]).toBe(say('en', 'voice.call.notRegistered'));
  });
});
