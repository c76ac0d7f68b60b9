import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_PIXELS, sniffFormat, validateImage } from './image-upload.ts';

const fixtures = path.join(import.meta.dirname, '../../test/fixtures');
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name));

async function rejection(buffer: Buffer) {
  try {
    await validateImage(buffer);
  } catch (err) {
    const e = err as { status: number; code: string; message: string };
    return { status: e.status, code: e.code, message: e.message };
  }
  throw new Error('validateImage accepted the file');
}

/** A noisy photo-like JPEG (noise does not compress, like a real photo). */
async function noisyJpeg(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919 + (i >> 7)) % 251;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

describe('validateImage', () => {
  it('accepts leaf photos in JPEG and PNG and reports their size', async () => {
    expect(await validateImage(fixture('maize-common-rust.jpg'))).toEqual({ format: 'jpeg', width: 256, height: 256 });
    const png = await sharp(fixture('bean-rust.jpg')).resize(200, 150, { fit: 'fill' }).png().toBuffer();
    expect(await validateImage(png)).toEqual({ format: 'png', width: 200, height: 150 });
  });

  it('reports the upright size of a photo taken sideways (EXIF orientation)', async () => {
    const sideways = await sharp(fixture('maize-healthy.jpg'))
      .resize(300, 200, { fit: 'fill' })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect(await validateImage(sideways)).toEqual({ format: 'jpeg', width: 200, height: 300 });
  });

  it('judges by content, not by name: a text file renamed to .jpg, a GIF and an SVG are refused', async () => {
    for (const name of ['text-renamed.jpg', 'leaf.gif', 'drawing.svg']) {
      expect(await rejection(fixture(name))).toEqual({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'File type not supported',
      });
    }
    expect(await rejection(Buffer.alloc(0))).toMatchObject({ status: 415 });
  });

  it('refuses a truncated JPEG as damaged', async () => {
    expect(await rejection(fixture('truncated.jpg'))).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'The image is damaged or incomplete',
    });
  });

  it('finds truncation in a large photo too (decoded to the last byte, not just the header)', async () => {
    const photo = await noisyJpeg(2400, 1800);
    expect(await validateImage(photo)).toMatchObject({ width: 2400, height: 1800 });
    expect(await rejection(photo.subarray(0, Math.floor(photo.length * 0.97)))).toMatchObject({ status: 400 });
    const png = await sharp(photo).png().toBuffer();
    expect(await rejection(png.subarray(0, Math.floor(png.length * 0.9)))).toMatchObject({ status: 400 });
  });

  it('refuses decompression bombs from the header, before decoding: tiny files that claim gigapixels', async () => {
    const png = fixture('huge-dimensions.png');
    const jpg = fixture('huge-dimensions.jpg');
    expect(png.length).toBeLessThan(200);
    expect(jpg.length).toBeLessThan(400);
    expect(await rejection(png)).toEqual({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The image is too large: 50000×50000 pixels (at most 25 megapixels)',
    });
    expect(await rejection(jpg)).toMatchObject({ status: 413, message: expect.stringContaining('60000×60000') });
  });

  it('refuses a real image just over the pixel limit and accepts one at 12 megapixels', async () => {
    const side = Math.ceil(Math.sqrt(MAX_IMAGE_PIXELS)) + 1;
    const over = await sharp({ create: { width: side, height: side, channels: 3, background: '#4a7a2a' } })
      .jpeg()
      .toBuffer();
    expect(await rejection(over)).toMatchObject({ status: 413 });
    const twelve = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#4a7a2a' } })
      .jpeg()
      .toBuffer();
    expect(await validateImage(twelve)).toEqual({ format: 'jpeg', width: 4000, height: 3000 });
  });

  it('sniffs only the two accepted signatures', () => {
    expect(sniffFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffFormat(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffFormat(Buffer.from([0xff, 0xd8]))).toBeNull();
  });
});
