import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { AppError } from '../../lib/errors.ts';
import { readImageUploads, type DecodeTurn, type UploadedImage } from '../../lib/image-upload.ts';

export const POST_IMAGE_FIELD = 'image';

/**
 * Reads a post sent as multipart/form-data: its text fields and at most one photo in `image`, with
 * the analysis upload's checks and messages (readImageUploads: JPEG/PNG by content, 5 MB, one file).
 * The photo is optional here, while readImageUploads insists on one: the text fields are noted as
 * they stream past, so a form without a photo still yields its fields.
 */
export async function readPostForm(
  req: FastifyRequest,
  decode: DecodeTurn,
): Promise<{ fields: Record<string, string>; image: UploadedImage | null }> {
  const seen: Record<string, string> = {};
  async function* noteFields(parts: AsyncIterableIterator<Multipart>) {
    for await (const part of parts) {
      if (part.type === 'field') seen[part.fieldname] = String(part.value);
      yield part;
    }
  }
  const tapped = {
    isMultipart: () => req.isMultipart(),
    parts: (opts: Parameters<FastifyRequest['parts']>[0]) => noteFields(req.parts(opts)),
  } as unknown as FastifyRequest;
  try {
    const { images, fields } = await readImageUploads(tapped, { maxFiles: 1, fileField: POST_IMAGE_FIELD, decode });
    return { fields, image: images[0] };
  } catch (err) {
    // "No photo at all" is fine for a post; a photo sent in another field is still refused.
    const noPhoto =
      err instanceof AppError && err.says('errors.upload.missing') && err.fields?.[POST_IMAGE_FIELD] === err.message;
    if (noPhoto) return { fields: seen, image: null };
    throw err;
  }
}

/**
 * The form's text fields as the JSON body would carry them, so one contract schema checks both and
 * gives the same messages: `rust_detection` becomes a number when it is one, and is left out when
 * empty; anything else stays a string for the schema to judge.
 */
export function postFieldsAsBody(fields: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...fields };
  const link = fields.rust_detection?.trim();
  if (link === undefined || link === '' || link === 'null') delete body.rust_detection;
  else if (/^\d+$/.test(link)) body.rust_detection = Number(link);
  return body;
}
