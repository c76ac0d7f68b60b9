import {
  adviceVoiceKey,
  adviceVoiceText,
  type Language,
  RECORDABLE_RESULT_KEYS,
  VOICE_CLIP_MAX_BYTES,
  VOICE_CLIP_MAX_SECONDS,
  VOICE_CLIP_MIN_SECONDS,
  type VoiceClip,
  type VoiceClipFields,
  type VoiceClipPage,
  type VoiceClipQuery,
  type VoicePack,
  type VoiceTextList,
  voiceApi,
} from '@kutu/contract';
import { AudioError, sniffAudio } from '../../adapters/speech.ts';
import type { StoredObject } from '../../adapters/storage.ts';
import type { ModuleDeps } from '../../deps.ts';
import { message } from '../../i18n/i18n.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import type { AdviceService } from '../analysis/advice.service.ts';
import { RECORDABLE_CALL_KEYS, callText } from './call-texts.ts';
import { clipTooBig } from './clip-upload.ts';
import { createVoiceRepo, type NamedClip } from './voice.repo.ts';

/**
 * Below this loudness (root mean square of the samples, about -46 dBFS) a recording holds no voice: a
 * muted or missing microphone records near-silence, which would play to farmers as nothing.
 */
export const SILENCE_RMS = 0.005;
const CLIP_FOLDER = 'voice/clips';

const staff = (who: AccessClaims) => who.role === 'expert' || who.role === 'admin';

function toClip(row: NamedClip, who: AccessClaims): VoiceClip {
  return {
    id: row.id,
    key: row.key,
    language: row.language,
    text: row.text,
    state: row.state,
    bytes: row.bytes,
    duration_ms: row.durationMs,
    recorded_by: row.recorder,
    mine: row.recordedBy === who.userId,
    decided_by: row.decider,
    created_at: row.createdAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
    audio_url: voiceApi.clipAudioPath(row.id),
  };
}

/**
 * Recorded voices (docs/decisions/0087): experts and administrators record the texts Kutu speaks, a second
 * person approves, and every signed-in phone keeps a language's approved clips to play before any
 * synthetic voice. A clip is checked by its content: its container by its first bytes, then decoded by
 * ffmpeg for its length and loudness, and stored as MP3.
 */
export function createClipsService(
  deps: Pick<ModuleDeps, 'db' | 'clock' | 'storage' | 'speech'>,
  uses: { advice: Pick<AdviceService, 'list'> },
) {
  const repo = createVoiceRepo(deps.db);

  return {
    /** The server's texts a person may record in `language`: its advice entries and the call's sentences. */
    async texts(language: Language): Promise<VoiceTextList> {
      const advice = (await uses.advice.list(language)).results.filter((a) => a.language === language);
      return {
        results: [
          ...advice.map((a) => ({
            key: adviceVoiceKey(a.topic, a.crop),
            kind: 'advice' as const,
            text: adviceVoiceText(a),
          })),
          ...RECORDABLE_CALL_KEYS.map((key) => ({ key, kind: 'call' as const, text: callText(language, key) })),
        ],
      };
    },

    async record(who: AccessClaims, fields: VoiceClipFields, audio: Buffer): Promise<VoiceClip> {
      if (audio.length > VOICE_CLIP_MAX_BYTES) throw clipTooBig();
      // A clip of a text Kutu never speaks would wait for approval and then never be played. The result's
      // sentences are the web's to write (its catalogue), so the contract names them.
      const known =
        RECORDABLE_RESULT_KEYS.includes(fields.key) ||
        (await this.texts(fields.language)).results.some((t) => t.key === fields.key);
      if (!known) throw badRequest('errors.voice.unknownText', { key: 'errors.voice.unknownText' });
      const container = sniffAudio(audio);
      if (!container) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'errors.voice.notAudio', 415);
      const prepared = await deps.speech.prepare(audio, container).catch((err: unknown) => {
        throw err instanceof AudioError ? badRequest('errors.voice.notAudio', { audio: 'errors.voice.notAudio' }) : err;
      });
      const seconds = prepared.durationMs / 1000;
      const refuse = (text: ReturnType<typeof message>) => badRequest(text, { audio: text });
      if (seconds < VOICE_CLIP_MIN_SECONDS)
        throw refuse(message('errors.voice.tooShort', { min: VOICE_CLIP_MIN_SECONDS }));
      if (seconds > VOICE_CLIP_MAX_SECONDS) {
        throw refuse(message('errors.voice.tooLong', { seconds: Math.round(seconds), max: VOICE_CLIP_MAX_SECONDS }));
      }
      if (prepared.rms < SILENCE_RMS) throw refuse(message('errors.voice.silent'));
      const audioPath = await deps.storage.put(CLIP_FOLDER, prepared.mp3, 'mp3');
      try {
        const row = await repo.insert({
          key: fields.key,
          language: fields.language,
          text: fields.text,
          audioPath,
          bytes: prepared.mp3.length,
          durationMs: prepared.durationMs,
          recordedBy: who.userId,
          createdAt: deps.clock.now(),
        });
        return toClip(row, who);
      } catch (err) {
        await deps.storage.remove(audioPath).catch(() => {});
        throw err;
      }
    },

    async list(who: AccessClaims, query: VoiceClipQuery): Promise<VoiceClipPage> {
      const { rows, total } = await repo.page(query.language, query.state, pageWindow(query));
      return toPage(
        rows.map((r) => toClip(r, who)),
        total,
        query,
      );
    },

    /** A second person's approval or rejection: never the one who recorded it. */
    async decide(who: AccessClaims, id: number, approve: boolean): Promise<VoiceClip> {
      const clip = await repo.byId(id);
      if (!clip) throw notFound('errors.voice.notFound');
      if (clip.recordedBy === who.userId) throw forbidden('errors.voice.ownClip');
      if (!(await repo.decide(id, approve, who.userId, deps.clock.now()))) throw conflict('errors.voice.decided');
      return toClip((await repo.byId(id))!, who);
    },

    /** A clip's audio: approved ones for anyone signed in; others only for experts and administrators. */
    async audio(who: AccessClaims, id: number): Promise<StoredObject> {
      const clip = await repo.byId(id);
      if (!clip || (clip.state !== 'approved' && !staff(who))) throw notFound('errors.voice.notFound');
      return deps.storage.stream(clip.audioPath).catch(() => {
        throw notFound('errors.voice.notFound');
      });
    },

    async pack(language: Language): Promise<VoicePack> {
      const [clips, advice] = await Promise.all([repo.inUse(language), uses.advice.list(language)]);
      return {
        language,
        clips: clips.map((c) => ({
          id: c.id,
          key: c.key,
          text: c.text,
          bytes: c.bytes,
          duration_ms: c.durationMs,
          audio_url: voiceApi.clipAudioPath(c.id),
        })),
        advice: advice.results,
      };
    },
  };
}
