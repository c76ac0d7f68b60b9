import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import sharp, { type Metadata } from 'sharp';
import { IMAGE_MAX_BYTES } from '@kutu/contract';
import { message } from '../i18n/i18n.ts';
import type { DecodeLimiter } from './decode-limiter.ts';
import { AppError, badRequest } from './errors.ts';
import { refuseNulCharacters } from './nul-characters.ts';

/**
 * The decode budget: larger images are refused from their header, before decoding. Bytes say little
 * about decode cost (a flat 40-megapixel PNG is 300 KB); pixels do. 25 megapixels is twice a phone
 * camera's usual 12 and well above what a diagnosis needs (see docs/decisions/0010-image-decoding.md).
 */
export const MAX_IMAGE_PIXELS = 25_000_000;
/** Stored photos are shrunk to this long side (enough for review and retraining). */
export const STORED_LONG_SIDE = 1600;

export type ImageFormat = 'jpeg' | 'png';
export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
}
export interface UploadedImage extends ImageInfo {
  buffer: Buffer;
  filename: string;
}

const unsupported = () => new AppError('UNSUPPORTED_MEDIA_TYPE', 'errors.upload.unsupported', 415);
const damaged = () => badRequest('errors.upload.damaged');
const tooBig = () => new AppError('PAYLOAD_TOO_LARGE', 'errors.upload.tooBig', 413);
const tooManyPixels = (width: number, height: number) =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    message('errors.upload.tooManyPixels', { width, height, megapixels: MAX_IMAGE_PIXELS / 1_000_000 }),
    413,
  );

/** The format from the first bytes, whatever the file name or declared type says. */
export function sniffFormat(buffer: Buffer): ImageFormat | null {
  if (buffer.length >= 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (buffer.length >= 8 && png.every((b, i) => buffer[i] === b)) return 'png';
  return null;
}

/**
 * Checks an uploaded image by its content: JPEG or PNG only (415), not a decompression bomb (413),
 * and decodable to the last byte (400). Returns the format and the dimensions as displayed (EXIF
 * orientation applied).
 */
export async function validateImage(buffer: Buffer): Promise<ImageInfo> {
  const format = sniffFormat(buffer);
  if (!format) throw unsupported();
  let meta: Metadata;
  try {
    // Reads the header only; `unlimited` stays off so huge text chunks are refused too.
    meta = await sharp(buffer, { limitInputPixels: false }).metadata();
  } catch {
    throw damaged();
  }
  if (meta.format !== format || !meta.width || !meta.height) throw damaged();
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) throw tooManyPixels(meta.width, meta.height);
  try {
    // A full decode (JPEG shrink-on-load keeps it cheap) so that truncated or corrupt data is caught
    // here, with a clear message, rather than in the classifier.
    await sharp(buffer, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    throw damaged();
  }
  const shown = meta.autoOrient ?? { width: meta.width, height: meta.height };
  return { format, width: shown.width, height: shown.height };
}

function tooManyFiles(maxFiles: number) {
  return badRequest(
    maxFiles === 1 ? 'errors.upload.tooManyOne' : message('errors.upload.tooManyMax', { max: maxFiles }),
  );
}

/** Turns the multipart parser's own failures into the messages users see. */
export function uploadError(err: unknown, maxFiles: number): unknown {
  const code = (err as { code?: string } | null)?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooBig();
    case 'FST_FILES_LIMIT':
      return tooManyFiles(maxFiles);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('errors.upload.tooManyFields');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'errors.upload.multipartOnly', 415);
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('errors.upload.fieldNotAllowed');
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest('errors.upload.interrupted');
    default:
      if (err instanceof Error && /multipart|boundary|part terminated/i.test(err.message)) {
        return badRequest('errors.upload.badMultipart');
      }
      return err;
  }
}

/** Who pays for the decoding: the shared decode limiter and the caller's share of it. */
export interface DecodeTurn {
  limiter: DecodeLimiter;
  userId: number;
}

/**
 * Reads a multipart form with up to `maxFiles` images in `fileField` (default `image`) plus text
 * fields. Every file is checked by content (see validateImage) in one turn of the decode limiter;
 * files in other fields are refused. A caller with no room in the limiter is refused (429/503)
 * before the upload is read.
 */
export async function readImageUploads(
  req: FastifyRequest,
  opts: { maxFiles: number; fileField?: string; decode: DecodeTurn },
): Promise<{ images: UploadedImage[]; fields: Record<string, string> }> {
  opts.decode.limiter.assertRoom(opts.decode.userId);
  const fileField = opts.fileField ?? 'image';
  if (!req.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', message('errors.upload.notMultipart', { field: fileField }), 415);
  }
  const files: { buffer: Buffer; filename: string }[] = [];
  const fields: Record<string, string> = {};
  let extraFiles = 0;
  let otherField: string | null = null;
  try {
    // One more file than allowed is read so that "too many" gets its own message.
    const parts = req.parts({ limits: { fileSize: IMAGE_MAX_BYTES, files: opts.maxFiles + 1, fields: 20 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        const value = (part as MultipartValue).value;
        fields[part.fieldname] = typeof value === 'string' ? value : String(value);
        continue;
      }
      const file = part as MultipartFile;
      if (file.fieldname !== fileField) {
        otherField ??= file.fieldname;
        file.file.resume();
        continue;
      }
      if (files.length >= opts.maxFiles) {
        extraFiles += 1;
        file.file.resume();
        continue;
      }
      const buffer = await file.toBuffer();
      // An empty file input still sends a part with no bytes: that is "no image".
      if (buffer.length > 0) files.push({ buffer, filename: file.filename ?? '' });
    }
  } catch (err) {
    throw uploadError(err, opts.maxFiles);
  }
  refuseNulCharacters(fields);
  if (extraFiles > 0) throw tooManyFiles(opts.maxFiles);
  if (files.length === 0) {
    throw badRequest('errors.upload.missing', {
      [fileField]: otherField
        ? message('errors.upload.wrongField', { field: fileField, other: otherField })
        : 'errors.upload.missing',
    });
  }
  const images = await opts.decode.limiter.run(opts.decode.userId, async () => {
    const checked: UploadedImage[] = [];
    for (const f of files) checked.push({ ...f, ...(await validateImage(f.buffer)) });
    return checked;
  });
  return { images, fields };
}

export interface StoredPhoto {
  data: Buffer;
  ext: 'jpg' | 'png';
}

/**
 * The photo as it is kept: small uploads without metadata are kept byte for byte; large ones, and
 * any with EXIF/XMP/IPTC/ICC metadata (phone photos carry GPS positions and camera serials), are
 * re-encoded upright, without metadata, at most STORED_LONG_SIDE pixels on the long side. Decodes:
 * run it inside a decode-limiter turn.
 */
export async function photoForStorage(image: Pick<UploadedImage, 'buffer' | 'format'>): Promise<StoredPhoto> {
  const meta = await sharp(image.buffer).metadata();
  const longSide = Math.max(meta.width ?? 0, meta.height ?? 0);
  const hasMetadata = Boolean(
    meta.exif || meta.xmp || meta.iptc || meta.comments?.length || (meta.orientation && meta.orientation !== 1),
  );
  if (!hasMetadata && longSide <= STORED_LONG_SIDE) {
    return { data: image.buffer, ext: image.format === 'png' ? 'png' : 'jpg' };
  }
  // sharp writes no metadata unless asked to (withMetadata/keepExif): the output carries none.
  const data = await sharp(image.buffer, { limitInputPixels: MAX_IMAGE_PIXELS })
    .autoOrient()
    .resize(STORED_LONG_SIDE, STORED_LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 88, mozjpeg: false })
    .toBuffer();
  return { data, ext: 'jpg' };
}

/**
 * Sends a stored photo to a caller the service already allowed to see it: private caching, and no
 * content sniffing so a file can never be served as anything but the image type it was checked as.
 */
/** Sends a stored photo; a stream from storage is piped, not held in memory. */
export function sendPhoto(reply: FastifyReply, photo: { contentType: string; data: Buffer | Readable; size?: number }) {
  if (photo.size !== undefined) reply.header('content-length', photo.size);
  return reply
    .header('content-type', photo.contentType)
    .header('cache-control', 'private, max-age=3600')
    .header('x-content-type-options', 'nosniff')
    .send(photo.data);
}
