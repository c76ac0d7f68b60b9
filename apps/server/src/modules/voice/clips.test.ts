import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackTar } from 'modern-tar';
import { eq } from 'drizzle-orm';
import {
  type AdviceList,
  adviceVoiceKey,
  adviceVoiceText,
  analysisApi,
  privacyApi,
  type VoiceClip,
  type VoiceClipPage,
  type VoicePack,
  type VoiceTextList,
  voiceApi,
} from '@kutu/contract';
import { voiceClips } from '../../db/schema/index.ts';
import { audioFile, toneWebm } from '../../../test/support/audio.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { post } from '../../../test/support/auth-flow.ts';
import { errorOf } from '../../../test/support/errors.ts';
import { fixture, multipart } from '../../../test/support/photos.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';

// Each upload is decoded and encoded by ffmpeg (child processes): seconds each on a busy 2-core machine.
describe('recorded voices: record, check by content, approve by a second person, keep on the phone', {
  timeout: 120_000,
}, () => {
  let t: TestContext;
  let recorder: TestUser;
  let approver: TestUser;
  let farmer: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    recorder = await createUser(t, 'expert');
    approver = await createUser(t, 'admin');
    farmer = await createUser(t, 'farmer', { language: 'lg' });
  });
  afterAll(() => t.close());

  const upload = (who: TestUser, audio: Buffer, fields: Record<string, string>) => {
    const form = multipart([{ field: 'audio', filename: 'clip.webm', contentType: 'audio/webm', data: audio }], fields);
    return t.app.inject({
      method: 'POST',
      url: voiceApi.clips,
      headers: { ...who.headers, ...form.headers },
      payload: form.payload,
    });
  };
  const decide = (who: TestUser, id: number, approve: boolean) =>
    t.app.inject({ method: 'POST', url: voiceApi.clipDecisionPath(id), headers: who.headers, payload: { approve } });
  const pack = async (who: TestUser, language: string) =>
    (await t.app.inject({ url: `${voiceApi.pack}?language=${language}`, headers: who.headers })).json() as VoicePack;

  it('lists the texts to record: the advice written in the language and the call’s sentences', async () => {
    const res = await t.app.inject({ url: `${voiceApi.texts}?language=lg`, headers: recorder.headers });
    expect(res.statusCode).toBe(200);
    const { results } = res.json() as VoiceTextList;
    const advice = (
      (await t.app.inject({ url: analysisApi.advice, headers: farmer.headers })).json() as AdviceList
    ).results.find((a) => a.topic === 'common_rust' && a.crop === 'maize' && a.language === 'lg')!;
    expect(results).toContainEqual({ key: 'advice:common_rust:maize', kind: 'advice', text: adviceVoiceText(advice) });
    expect(results).toContainEqual({
      key: 'voice.call.result.common_rust',
      kind: 'call',
      text: 'Ebyavudde mu kukebera okusembayo: obubonero bwa kutu.',
    });
    // The two sentences that tell a Luganda caller, in English, that no recording exists are not for recording.
    expect(results.some((r) => r.key === 'voice.call.noRecording')).toBe(false);
    expect((await t.app.inject({ url: `${voiceApi.texts}?language=lg`, headers: farmer.headers })).statusCode).toBe(
      403,
    );
  });

  it('takes a recording by its content, measures it, and keeps it as MP3 until a second person approves it', async () => {
    const res = await upload(recorder, toneWebm(2), {
      key: 'advice:healthy:general',
      language: 'lg',
      text: 'Ekirime kiramu.',
    });
    expect(res.statusCode, res.body).toBe(201);
    const clip = res.json() as VoiceClip;
    expect(clip).toMatchObject({ state: 'pending', mine: true, language: 'lg', recorded_by: recorder.username });
    expect(clip.duration_ms).toBeGreaterThan(1900);
    expect(clip.duration_ms).toBeLessThan(2100);
    // 32 kbit/s: about 4 KB a second.
    expect(clip.bytes).toBeGreaterThan(6_000);
    expect(clip.bytes).toBeLessThan(12_000);

    const audio = await t.app.inject({ url: clip.audio_url, headers: approver.headers });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/mpeg');
    expect(audio.rawPayload.subarray(0, 3).toString('latin1')).toMatch(/^(ID3|\xff)/);
    // Not approved yet: a farmer neither hears it nor learns it exists.
    expect((await t.app.inject({ url: clip.audio_url, headers: farmer.headers })).statusCode).toBe(404);
    expect((await pack(farmer, 'lg')).clips).toEqual([]);

    expect(errorOf(await decide(recorder, clip.id, true))).toMatchObject({ code: 'FORBIDDEN' });
    const approved = await decide(approver, clip.id, true);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ state: 'approved', decided_by: approver.username, mine: false });
    expect(errorOf(await decide(approver, clip.id, false))).toMatchObject({ code: 'CONFLICT' });

    const kept = await pack(farmer, 'lg');
    expect(kept.clips).toEqual([
      {
        id: clip.id,
        key: 'advice:healthy:general',
        text: 'Ekirime kiramu.',
        bytes: clip.bytes,
        duration_ms: clip.duration_ms,
        audio_url: clip.audio_url,
      },
    ]);
    expect(kept.advice.find((a) => a.topic === 'healthy' && a.crop === 'general')?.language).toBe('lg');
    expect((await t.app.inject({ url: clip.audio_url, headers: farmer.headers })).statusCode).toBe(200);
  });

  it('refuses what is no recording, a silent one, one too short or too long, and a farmer', async () => {
    const fields = { key: 'advice:unsure:general', language: 'lg', text: 'Kutu teyali nkakafu.' };
    const refused = [
      [fixture('maize-healthy.jpg'), 415, 'not a recording Kutu can play'],
      [
        Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(2000, 1)]),
        400,
        'not a recording Kutu can play',
      ],
      [audioFile('anullsrc=r=48000:cl=mono', 'webm', 3), 400, 'No voice was heard'],
      [toneWebm(0.4), 400, 'too short'],
      [audioFile('sine=frequency=300:duration=125', 'ogg'), 400, '125 seconds long: at most 120'],
    ] as const;
    for (const [audio, status, says] of refused) {
      const res = await upload(recorder, audio, fields);
      expect(res.statusCode, says).toBe(status);
      expect(errorOf(res).message).toContain(says);
    }
    const big = await upload(recorder, Buffer.concat([toneWebm(1), Buffer.alloc(2 * 1024 * 1024)]), fields);
    expect(big.statusCode).toBe(413);
    expect(errorOf(await upload(recorder, toneWebm(2), { ...fields, text: '' })).fields).toHaveProperty('text');
    expect((await upload(farmer, toneWebm(2), fields)).statusCode).toBe(403);
    // A clip of a text Kutu never speaks was once accepted, to wait for approval and never be played.
    const unknown = await upload(recorder, toneWebm(2), { ...fields, key: 'advice:no_such_topic:maize' });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown).fields?.key).toBe(
      'Kutu has no text with this name to record. Choose one of the texts in the list.',
    );
    // The result's sentences are the web's to write, and are recordable all the same (the phone's Listen).
    const heading = await upload(recorder, toneWebm(2), {
      ...fields,
      key: 'analysis.result.heading.rust_maize',
      text: 'Obubonero bwa kutu ya kasooli',
    });
    expect(heading.statusCode, heading.body).toBe(201);
    expect((await upload(recorder, toneWebm(2), { ...fields, key: 'analysis.result.heading.unsure' })).statusCode).toBe(
      400,
    );
    const listed = (
      await t.app.inject({ url: `${voiceApi.clips}?language=lg&state=pending`, headers: approver.headers })
    ).json() as VoiceClipPage;
    expect(listed.results.some((c) => c.key === 'advice:unsure:general')).toBe(false);
  });

  it('a newer approved recording of the same text takes the place of the one in use', async () => {
    const key = adviceVoiceKey('not_leaf', 'general');
    const ids: number[] = [];
    for (const frequency of [200, 330]) {
      const res = await upload(recorder, toneWebm(1.5, frequency), { key, language: 'sw', text: 'Hakuna jani.' });
      ids.push((res.json() as VoiceClip).id);
      expect((await decide(approver, ids.at(-1)!, true)).statusCode).toBe(200);
    }
    expect((await pack(farmer, 'sw')).clips.map((c) => c.id)).toEqual([ids[1]]);
    const [first] = await t.deps.database.db.select().from(voiceClips).where(eq(voiceClips.id, ids[0]!));
    expect(first!.replacedAt).not.toBeNull();
    const rejected = await upload(recorder, toneWebm(1.5), { key, language: 'sw', text: 'Hakuna jani.' });
    expect((await decide(approver, (rejected.json() as VoiceClip).id, false)).json()).toMatchObject({
      state: 'rejected',
    });
    expect((await pack(farmer, 'sw')).clips.map((c) => c.id)).toEqual([ids[1]]);
  });

  it('a recording is its maker’s data: in their archive, and erased with their account', async () => {
    const maker = await createUser(t, 'expert');
    const made = (
      await upload(maker, toneWebm(1.5), { key: 'voice.call.goodbye', language: 'lg', text: 'Weeraba.' })
    ).json() as VoiceClip;
    const theirs = (
      await upload(recorder, toneWebm(1.5), { key: 'voice.call.noKey', language: 'lg', text: 'Tonyize.' })
    ).json() as VoiceClip;
    expect((await decide(approver, made.id, true)).statusCode).toBe(200);
    expect((await decide(maker, theirs.id, true)).statusCode).toBe(200);
    const [row] = await t.deps.database.db.select().from(voiceClips).where(eq(voiceClips.id, made.id));

    const archive = await t.app.inject({ url: privacyApi.export, headers: maker.headers });
    const files = new Map(
      (await unpackTar(gunzipSync(archive.rawPayload))).map((e) => [e.header.name, Buffer.from(e.data ?? [])]),
    );
    expect(JSON.parse(files.get('kutu-my-data/voice.json')!.toString())).toMatchObject([
      { id: made.id, key: 'voice.call.goodbye', language: 'lg', text: 'Weeraba.', state: 'approved' },
    ]);
    expect(files.get(`kutu-my-data/voice/${row!.audioPath.split('/').join('_')}`)).toEqual(
      await t.deps.storage.get(row!.audioPath),
    );

    const gone = await post(t, privacyApi.deleteAccount, { password: maker.password }, maker.headers);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await t.deps.database.db.select().from(voiceClips).where(eq(voiceClips.id, made.id))).toEqual([]);
    expect(await t.deps.storage.exists(row!.audioPath)).toBe(false);
    // What they approved stays approved, without who approved it.
    const [kept] = await t.deps.database.db.select().from(voiceClips).where(eq(voiceClips.id, theirs.id));
    expect(kept).toMatchObject({ state: 'approved', decidedBy: null });
    const log = await t.app.inject({ url: privacyApi.erasures, headers: approver.headers });
    expect(log.json().results[0].counts).toMatchObject({ voice_clips_erased: 1 });
  });
});
