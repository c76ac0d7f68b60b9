import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { VOICE_CLIP_MAX_BYTES } from '@kutu/contract/voice-paths';
import { message } from '../../i18n/i18n.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { uploadError } from '../../lib/image-upload.ts';
import { refuseNulCharacters } from '../../lib/nul-characters.ts';

export const clipTooBig = () =>
  new AppError('PAYLOAD_TOO_LARGE', message('errors.voice.tooBig', { mb: VOICE_CLIP_MAX_BYTES / 1024 / 1024 }), 413);

/**
 * A new recording's form: the text fields and one file in `audio`, at most VOICE_CLIP_MAX_BYTES (the
 * parser stops reading past it). What the bytes are is checked by the service, by their content.
 */
export async function readClipUpload(req: FastifyRequest): Promise<{ audio: Buffer; fields: Record<string, string> }> {
  if (!req.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', message('errors.upload.notMultipart', { field: 'audio' }), 415);
  }
  const fields: Record<string, string> = {};
  let audio: Buffer | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: VOICE_CLIP_MAX_BYTES, files: 1, fields: 10 } })) {
      if (part.type === 'field') {
        const value = (part as MultipartValue).value;
        fields[part.fieldname] = typeof value === 'string' ? value : String(value);
        continue;
      }
      const file = part as MultipartFile;
      if (file.fieldname !== 'audio') {
        file.file.resume();
        continue;
      }
      audio = await file.toBuffer();
    }
  } catch (err) {
    if ((err as { code?: string } | null)?.code === 'FST_REQ_FILE_TOO_LARGE') throw clipTooBig();
    throw uploadError(err, 1);
  }
  refuseNulCharacters(fields);
  if (!audio?.length) throw badRequest('errors.voice.missing', { audio: 'errors.voice.missing' });
  return { audio, fields };
}
