import { z } from 'zod';
import {
  roles,
  voiceApi,
  voiceClip,
  voiceClipDecision,
  voiceClipFields,
  voiceClipPage,
  voiceClipParams,
  voiceClipQuery,
  voicePack,
  voicePackQuery,
  voiceTextList,
  voiceTextQuery,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import { contractMessage, message } from '../../i18n/i18n.ts';
import { badRequest } from '../../lib/errors.ts';
import { sendPhoto } from '../../lib/image-upload.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';
import { caller } from '../../plugins/auth.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createVoiceService } from './voice.service.ts';
import { readClipUpload } from './clip-upload.ts';

const tags = ['voice'];
const staff = guard('expert', 'admin');
/**
 * Every role, named, so the one vetting check applies: an expert or officer waiting for approval hears no
 * recording (guard() with no roles skips it, and an expert may hear recordings not yet approved).
 */
const signedIn = guard(...roles);

/**
 * Recorded voices and the phone's voice pack (docs/decisions/0087): experts and administrators record and
 * approve; every signed-in person reads the approved clips of a language.
 */
export function voiceRoutes(
  app: App,
  { services: { voice } }: RouteContext<{ voice: ReturnType<typeof createVoiceService> }>,
) {
  const { clips } = voice;

  app.get(
    voiceApi.texts,
    {
      schema: {
        tags,
        description:
          "The server's texts that may be recorded in a language: advice entries written in it, and the phone call's sentences.",
        querystring: voiceTextQuery,
        response: { 200: voiceTextList, ...errorReplies(400, 401, 403) },
      },
      config: staff,
    },
    async (req) => clips.texts(req.query.language),
  );

  app.get(
    voiceApi.clips,
    {
      schema: {
        tags,
        description: 'Recordings of a language, newest first (filter by state).',
        querystring: voiceClipQuery,
        response: { 200: voiceClipPage, ...errorReplies(400, 401, 403) },
      },
      config: staff,
    },
    async (req) => clips.list(caller(req), req.query),
  );

  app.post(
    voiceApi.clips,
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        description:
          'A new recording: multipart form with `key`, `language`, `text` (the words read) and the audio in `audio` (WebM, Ogg, MP4/M4A, WAV or MP3 by its content; at most 2 MB, 1 to 120 seconds, not silent). Stored as MP3, pending until a second person approves it.',
        response: { 201: voiceClip, ...errorReplies(400, 401, 403, 413, 415) },
      },
      config: staff,
    },
    async (req, reply) => {
      const { audio, fields } = await readClipUpload(req);
      const parsed = voiceClipFields.safeParse(fields);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const text = issue?.message ? contractMessage(issue.message) : message('errors.upload.invalidFormFields');
        throw badRequest(text, { [String(issue?.path[0] ?? 'key')]: text });
      }
      return reply.status(201).send(await clips.record(caller(req), parsed.data, audio));
    },
  );

  app.post(
    voiceApi.clipDecision,
    {
      schema: {
        tags,
        description:
          'Approve or reject a pending recording; never one the caller recorded (403). An approval replaces the recording in use for that text.',
        params: voiceClipParams,
        body: voiceClipDecision,
        response: { 200: voiceClip, ...errorReplies(400, 401, 403, 404, 409) },
      },
      config: staff,
    },
    async (req) => clips.decide(caller(req), req.params.id, req.body.approve),
  );

  app.get(
    voiceApi.clipAudio,
    {
      schema: {
        tags,
        description:
          'The recording (MP3): an approved one for anyone signed in, others for experts and administrators.',
        params: voiceClipParams,
        response: { 200: z.any(), ...errorReplies(400, 401, 404) },
      },
      config: signedIn,
    },
    async (req, reply) => {
      const audio = await clips.audio(caller(req), req.params.id);
      return sendPhoto(reply, { contentType: 'audio/mpeg', data: audio.body, size: audio.size });
    },
  );

  app.get(
    voiceApi.pack,
    {
      schema: {
        tags,
        description:
          "A language's approved recordings (each with the text it reads) and its advice texts, kept on the phone to speak offline.",
        querystring: voicePackQuery,
        response: { 200: voicePack, ...errorReplies(400, 401) },
      },
      config: signedIn,
    },
    async (req) => clips.pack(req.query.language),
  );
}
