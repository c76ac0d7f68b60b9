import type { TFunction } from 'i18next';
import { IMAGE_MAX_BYTES } from '@kutu/contract/enums';
import { formatNumber } from './format.ts';

export interface PreparedPhoto {
  blob: Blob;
  filename: string;
  /** False when the original is sent as it is (already small, or the browser cannot decode it). */
  resized: boolean;
  width?: number;
  height?: number;
}

export const SHRINK_LONG_SIDE = 1024;
export const SHRINK_QUALITY = 0.85;
/** JPEG or PNG photos at most this big and at most SHRINK_LONG_SIDE pixels are sent unchanged. */
const SMALL_ENOUGH_BYTES = 512 * 1024;
/** What the server takes; anything else the browser can open (HEIC, WebP, GIF) is sent as a JPEG. */
const SENDABLE_TYPES = ['image/jpeg', 'image/png'];

function jpegName(name: string) {
  const base = name.replace(/\.[^.]+$/, '') || 'photo';
  return `${base}.jpg`;
}

/**
 * Shrinks a phone photo in the browser before upload: upright (EXIF orientation applied), about
 * 1024 px on the long side, JPEG at 0.85, so a 4 MB photo costs a few hundred kilobytes of data.
 * Anything the browser cannot decode is sent as it is: the server then explains what is wrong.
 */
export async function shrinkPhoto(
  file: File,
  longSide = SHRINK_LONG_SIDE,
  quality = SHRINK_QUALITY,
): Promise<PreparedPhoto> {
  const original: PreparedPhoto = { blob: file, filename: file.name || 'photo', resized: false };
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return original;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return original;
  }
  try {
    const scale = Math.min(1, longSide / Math.max(bitmap.width, bitmap.height));
    const sendable = SENDABLE_TYPES.includes(file.type);
    if (scale === 1 && file.size <= SMALL_ENOUGH_BYTES && sendable)
      return { ...original, width: bitmap.width, height: bitmap.height };
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return original;
    // JPEG has no transparency: a transparent PNG gets a white background rather than black.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bitmap, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
    if (!blob || (sendable && blob.size >= file.size)) return original;
    return { blob, filename: jpegName(file.name), resized: true, width, height };
  } finally {
    bitmap.close();
  }
}

/**
 * The server's limits, applied to what will be sent, after shrinking: a 12 MB camera photo is fine
 * once it is 300 KB. Returns the message key of the spec's refusal, or null.
 */
export type PhotoRefusal = 'analysis.upload.unsupported' | 'analysis.upload.tooBig';
export function refusalOf(photo: PreparedPhoto): PhotoRefusal | null {
  if (!SENDABLE_TYPES.includes(photo.blob.type)) return 'analysis.upload.unsupported';
  if (photo.blob.size > IMAGE_MAX_BYTES) return 'analysis.upload.tooBig';
  return null;
}

/** What every photo picker accepts: any image the browser can open; size and format are judged after shrinking. */
export const ANY_IMAGE = ['image/*'];

/**
 * The one way every photo form (diagnosis, post, training samples) readies a picked photo: shrunk in
 * the browser, then checked against the server's limits, so a 12 MB camera photo goes as 300 KB and
 * a refusal names the real reason (decision 0018).
 */
export async function preparePhoto(file: File): Promise<{ photo: PreparedPhoto; refusal: PhotoRefusal | null }> {
  const photo = await shrinkPhoto(file).catch(
    (): PreparedPhoto => ({ blob: file, filename: file.name || 'photo', resized: false }),
  );
  return { photo, refusal: refusalOf(photo) };
}

/**
 * The message key for files a drop zone refused before shrinking (not an image, or too many): the
 * reasons as react-dropzone (Mantine's Dropzone) and components/PhotoPicker report them.
 */
export function rejectionKey(rejections: readonly { errors: readonly { code: string }[] }[], single = true): string {
  const codes = rejections.flatMap((r) => r.errors.map((e) => e.code));
  if (codes.includes('too-many-files') || (single && rejections.length > 1)) return 'analysis.upload.tooMany';
  if (codes.includes('file-invalid-type')) return 'analysis.upload.unsupported';
  if (codes.includes('file-too-large')) return 'analysis.upload.tooBig';
  return 'analysis.upload.failed';
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, 0)} KB`;
  return `${formatNumber(bytes / (1024 * 1024), 2)} MB`;
}

/** "4.1 MB → 310 KB (1024×768)" while a picked photo is being shrunk and after; shared by every photo picker. */
export function photoSizesLabel(t: TFunction, file: File, prepared: PreparedPhoto | null): string {
  if (!prepared) return t('analysis.upload.preparing');
  if (!prepared.resized) return t('analysis.upload.sizesOriginal', { original: formatBytes(file.size) });
  return t('analysis.upload.sizesResized', {
    original: formatBytes(file.size),
    sent: formatBytes(prepared.blob.size),
    width: prepared.width,
    height: prepared.height,
  });
}
