import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Db } from '../../src/db/client.ts';
import { analyses } from '../../src/db/schema/index.ts';
import type { TestContext } from './app.ts';

export const fixturesDir = path.join(import.meta.dirname, '../fixtures');
export const fixture = (name: string) => fs.readFileSync(path.join(fixturesDir, name));

export interface FilePart {
  field?: string;
  filename: string;
  contentType?: string;
  data: Buffer;
}

/**
 * A photo of `crop` (maize unless told) the model called common rust (0.9, not unsure) at `createdAt`,
 * written straight into the database as an analysis of `userId` whose image is `imagePath` (no outbreak
 * count made: the outbreak service's record(), a review of it or the repair recount makes that). Returns its id.
 */
export async function insertRustPhoto(
  db: Db,
  userId: number,
  imagePath: string,
  createdAt: Date,
  crop: 'maize' | 'beans' = 'maize',
): Promise<number> {
  const [row] = await db
    .insert(analyses)
    .values({
      userId,
      imagePath,
      outcome: 'diagnosis',
      rustClass: 'common_rust',
      confidence: 0.9,
      unsure: false,
      probabilities: { common_rust: 0.9, healthy: 0.05, other_disease: 0.05 },
      modelVersion: 'v-test',
      crop,
      createdAt,
    })
    .returning({ id: analyses.id });
  return row.id;
}

/** A multipart/form-data body for app.inject, built by hand so tests control every byte. */
export function multipart(files: FilePart[], fields: Record<string, string> = {}) {
  const boundary = `----kutu${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'image'}"; filename="${f.filename}"\r\n` +
          `Content-Type: ${f.contentType ?? 'image/jpeg'}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** One photo (as "leaf.jpg") with its form fields, posted to `url` by `user` through the test app. */
export function uploadPhoto(
  t: TestContext,
  user: { headers: Record<string, string> },
  url: string,
  data: Buffer,
  fields: Record<string, string> = {},
) {
  const form = multipart([{ filename: 'leaf.jpg', data }], fields);
  return t.app.inject({ method: 'POST', url, payload: form.payload, headers: { ...user.headers, ...form.headers } });
}

/**
 * A photo-sized JPEG made from a dataset leaf: upscaled to width × height with noise added, so it
 * compresses like a real camera photo (a few MB at 12 megapixels).
 */
export async function bigLeafJpeg(width: number, height: number, quality = 90): Promise<Buffer> {
  const base = await sharp(fixture('maize-common-rust.jpg'))
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
  const noisy = Buffer.alloc(base.length);
  let seed = 12345;
  for (let i = 0; i < base.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const v = base[i] + ((seed >> 16) % 17) - 8;
    noisy[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  return sharp(noisy, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}
