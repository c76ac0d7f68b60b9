import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adviceVoiceKey, analysisApi, phoneApi, type AdviceList, type VoiceClip, voiceApi } from '@kutu/contract';
import { createSpeech } from '../../adapters/speech.ts';
import { createVoiceCalls } from '../../adapters/voice-calls.ts';
import { analyses, callbackRequests, expertReviews, users } from '../../db/schema/index.ts';
import { toneWebm } from '../../../test/support/audio.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { multipart } from '../../../test/support/photos.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { type CallStep, placeCall, startVoiceApi } from '../../../test/support/voice-gateway.ts';
import { SILENCE_RMS } from './clips.service.ts';

const KEY = 'gateway-secret-for-the-voice-tests';

// Each new sentence is rendered by eSpeak NG and ffmpeg (child processes): seconds on a busy 2-core machine.
describe("Kutu's voice call through Africa's Talking", { timeout: 180_000 }, () => {
  let t: TestContext;
  let gateway: Awaited<ReturnType<typeof startVoiceApi>>;
  let farmer: TestUser;
  let expert: TestUser;
  let admin: TestUser;
  const speech = createSpeech();
  const db = () => t.deps.database.db;

  beforeAll(async () => {
    gateway = await startVoiceApi();
    t = await createTestApp({
      env: { AT_CALLBACK_SECRET: KEY, PHONE_RATE_LIMIT_MAX: '10000' },
      calls: createVoiceCalls({
        apiUrl: gateway.url,
        apiKey: gateway.apiKey,
        username: gateway.username,
        from: '+254711082000',
      }),
    });
    farmer = await createUser(t, 'farmer');
    expert = await createUser(t, 'expert');
    admin = await createUser(t, 'admin');
    await db()
      .insert(analyses)
      .values({
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
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  /** Each played address answers MP3 that decodes to sound (not silence); returns its length. */
  const heard = new Map<string, number>();
  async function hear(url: string): Promise<number> {
    const known = heard.get(url);
    if (known) return known;
    const u = new URL(url);
    const res = await t.app.inject({ url: `${u.pathname}${u.search}` });
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    const audio = await speech.prepare(res.rawPayload, 'mp3');
    expect(audio.rms).toBeGreaterThan(SILENCE_RMS);
    heard.set(url, audio.durationMs);
    return audio.durationMs;
  }
  const call = (keys: string[], from = farmer.phone) => placeCall(t, { from, keys, key: KEY });
  const resultStep = (steps: CallStep[]) => steps[1]!;

  it('answers in English and Kiswahili: the language by a key, the last result and its advice, a call back', async () => {
    const en = await call(['1', '2']);
    expect(en).toHaveLength(3);
    // The menu: a welcome, then each language's option said in that language (Luganda's in English: no recording).
    expect(en[0]!.getDigits).toMatchObject({ numDigits: 1, played: en[0]!.played.slice(0, 4) });
    // No key: "no key was pressed", after the menu.
    expect(en[0]!.played).toHaveLength(5);
    // The result: its sentence and the advice, then "press 1 / press 2" while it waits for a key, then goodbye.
    const result = resultStep(en);
    expect(result.played).toHaveLength(4);
    expect(result.getDigits?.played).toEqual([result.played[2]]);
    // Each is sound; the advice (headline and steps) is much longer than the result's sentence.
    expect(await hear(en[0]!.played[0]!)).toBeGreaterThan(400);
    expect(await hear(result.played[1]!)).toBeGreaterThan(2 * (await hear(result.played[0]!)));
    expect(en[2]!.played).toHaveLength(1);
    const [asked] = await db().select().from(callbackRequests).where(eq(callbackRequests.userId, farmer.id));
    expect(asked).toMatchObject({ channel: 'call', language: 'en', doneAt: null });

    const sw = await call(['2', '1', '9']);
    // Kiswahili is another voice reading other words: other files; "1" plays the same result again.
    expect(resultStep(sw).played[0]).not.toBe(result.played[0]);
    expect(sw[2]!.played.slice(0, 2)).toEqual(resultStep(sw).played.slice(0, 2));
    expect(await hear(resultStep(sw).played[0]!)).toBeGreaterThan(400);
    // Asking again while a request is open changes nothing, and the call says so.
    const again = await call(['1', '2']);
    expect(again[2]!.played).not.toEqual(en[2]!.played);
    expect(await db().select().from(callbackRequests).where(eq(callbackRequests.userId, farmer.id))).toHaveLength(1);
  });

  it('says a Luganda sentence with no recording in English, as such; an approved Luganda recording plays instead', async () => {
    const before = resultStep(await call(['3']));
    const english = resultStep(await call(['1']));
    // First "no Luganda recording yet" in English, once, then the English sentences.
    expect(before.played.slice(1)).toEqual(english.played);

    const texts = (await t.app.inject({ url: `${voiceApi.texts}?language=lg`, headers: expert.headers })).json()
      .results as { key: string; text: string }[];
    for (const key of ['voice.call.result.common_rust', adviceVoiceKey('common_rust', 'maize')]) {
      const form = multipart([{ field: 'audio', filename: 'a.webm', contentType: 'audio/webm', data: toneWebm(2) }], {
        key,
        language: 'lg',
        text: texts.find((x) => x.key === key)!.text,
      });
      const res = await t.app.inject({
        method: 'POST',
        url: voiceApi.clips,
        headers: { ...expert.headers, ...form.headers },
        payload: form.payload,
      });
      const clip = res.json() as VoiceClip;
      const ok = await t.app.inject({
        method: 'POST',
        url: voiceApi.clipDecisionPath(clip.id),
        headers: admin.headers,
        payload: { approve: true },
      });
      expect(ok.statusCode).toBe(200);
    }
    const after = resultStep(await call(['3']));
    // The recordings, then the rest in English, said as such once after them.
    expect(after.played[0]).toMatch(/\/c-[\w-]+\.mp3\?sig=/);
    expect(after.played[1]).toMatch(/\/c-[\w-]+\.mp3\?sig=/);
    expect(after.played.slice(2)).toEqual([before.played[0], ...english.played.slice(2)]);
    expect(await hear(after.played[0]!)).toBeGreaterThan(1900);

    // The Luganda advice changes: its recording no longer reads it, and the call says the advice in English.
    const lgExpert = await createUser(t, 'expert', { language: 'lg' });
    const advice = ((await t.app.inject({ url: analysisApi.advice, headers: lgExpert.headers })).json() as AdviceList)
      .results;
    const entry = advice.find((a) => a.topic === 'common_rust' && a.crop === 'maize' && a.language === 'lg')!;
    const edit = await t.app.inject({
      method: 'PUT',
      url: analysisApi.adviceItemPath(entry.id),
      headers: lgExpert.headers,
      payload: { headline: `${entry.headline}!`, steps: entry.steps, more: entry.more },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const changed = resultStep(await call(['3']));
    expect(changed.played[0]).toBe(after.played[0]);
    expect(changed.played[1]).toBe(before.played[0]);
    // The English advice, whose text did not change.
    expect(changed.played[2]).toBe(english.played[1]);
  });

  it('reaches a clinic farmer without a password, an expert’s verdict said as such', async () => {
    const clinicFarmer = await createUser(t, 'farmer');
    await db().update(users).set({ passwordHash: null, activatedAt: null }).where(eq(users.id, clinicFarmer.id));
    const [a] = await db()
      .insert(analyses)
      .values({
        userId: clinicFarmer.id,
        imagePath: 'y.jpg',
        outcome: 'diagnosis',
        rustClass: 'healthy',
        confidence: 0.6,
        unsure: true,
        probabilities: { common_rust: 0.3, healthy: 0.6, other_disease: 0.1 },
        modelVersion: 'test',
        crop: 'beans',
      })
      .returning();
    await db()
      .insert(expertReviews)
      .values({ analysisId: a!.id, reviewerId: expert.id, verdict: 'common_rust', reviewedAt: new Date() });
    const steps = await call(['2'], clinicFarmer.phone);
    // Rust (the verdict, not the model's unsure answer), "an expert checked it", then the bean rust advice.
    const farmerSteps = await call(['2']);
    expect(resultStep(steps).played).toHaveLength(5);
    expect(resultStep(steps).played[0]).toBe(resultStep(farmerSteps).played[0]);
    expect(resultStep(steps).played[2]).not.toBe(resultStep(farmerSteps).played[1]);
  });

  it('tells a number without an account how to register, and refuses a caller without the secret', async () => {
    const steps = await call([], '+256700999888');
    expect(steps).toHaveLength(1);
    expect(steps[0]!.getDigits).toBeNull();
    // In English and in Kiswahili: the number has no language yet.
    expect(steps[0]!.played).toHaveLength(2);
    const wrong = await t.app.inject({
      method: 'POST',
      url: `${voiceApi.call}?key=wrong-secret-of-some-length`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ sessionId: 'x', callerNumber: farmer.phone }).toString(),
    });
    expect(wrong.statusCode).toBe(403);
    const url = new URL(steps[0]!.played[0]!);
    expect((await t.app.inject({ url: url.pathname })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `${url.pathname}?sig=${'A'.repeat(32)}` })).statusCode).toBe(404);
  });

  it('"hear it in a call" in the USSD menu asks the gateway to call the farmer, once in ten minutes', async () => {
    const dial = async (text: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `${phoneApi.ussd}?key=${KEY}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ sessionId: `v${Math.random()}`, phoneNumber: farmer.phone, text }).toString(),
        })
      ).body;
    expect(await dial('5')).toContain('\n2 Hear it in a call');
    expect(await dial('5*2')).toBe(
      `END Kutu will call you on ${farmer.phone} now. Answer to hear your result and what to do.`,
    );
    expect(gateway.calls).toEqual([{ to: farmer.phone, from: '+254711082000' }]);
    expect(await dial('5*2')).toMatch(/^END Kutu called you a few minutes ago/);
    expect(gateway.calls).toHaveLength(1);
    // The gateway's call, when answered, reaches the same callback.
    const steps = await placeCall(t, { from: farmer.phone, keys: ['1'], key: KEY, direction: 'Outbound' });
    expect(resultStep(steps).played).toHaveLength(4);
  });
});
