import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelInput } from './browser.ts';
import { type Classifier, loadClassifier } from './classifier.ts';
import { packageRoot } from './dataset.ts';
import { defaultModelDir } from './index.ts';
import { bandOf, rustShareOf } from './severity.ts';

/**
 * One severity for one photo (decision 0048): the server's share (what `classify()` stores: sharp's
 * decode and resize) against the phone's (the browser's upright RGBA through `modelInput`, then
 * `rustShareOf`, as `lib/offline/engine.ts` calls them), on the same pixels: the committed rusty leaves
 * and a phone-sized JPEG of one. Same crop, same band, and the share within half a point.
 */
const rusty = path.join(packageRoot, 'test/fixtures/leaves/common_rust');
const photos: [string, Buffer, 'maize' | 'beans'][] = fs
  .readdirSync(rusty)
  .map((f) => [f, fs.readFileSync(path.join(rusty, f)), f.includes('__bean__') ? 'beans' : 'maize']);

/** The pixels a phone's browser hands the offline engine: upright RGBA at the photo's own size. */
async function phoneShare(photo: Buffer, crop: string) {
  const { data, info } = await sharp(photo).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return rustShareOf(modelInput(data, info.width, info.height, 160).rgb, 160, crop);
}

describe('severity on the phone and on the server', () => {
  let server: Classifier;
  beforeAll(async () => {
    server = await loadClassifier(defaultModelDir());
    const [name, bean] = photos.find(([, , crop]) => crop === 'beans') ?? photos[0];
    // As a phone takes it: 1600 px wide, re-encoded (libvips shrinks it on load; the phone does not).
    const big = await sharp(bean).resize(1600, 1200, { fit: 'fill', kernel: 'cubic' }).jpeg({ quality: 88 }).toBuffer();
    photos.push([`${name} at 1600×1200`, big, 'beans']);
  });
  afterAll(() => server?.close());

  it('gives the same share and band for the same photo and crop', async () => {
    for (const [name, photo, crop] of photos) {
      const onServer = (await server.classify(photo, { crop })).rust_share;
      const onPhone = await phoneShare(photo, crop);
      expect(onServer, name).not.toBeNull();
      expect(Math.abs((onPhone ?? Number.NaN) - (onServer ?? Number.NaN)), name).toBeLessThan(0.005);
      expect(bandOf(onPhone ?? 0), name).toBe(bandOf(onServer ?? 0));
    }
  });

  it('reads a bean leaf by the bean rules on both: the crop named is the one input that moves it', async () => {
    const [, photo] = photos.find(([, , crop]) => crop === 'beans') ?? photos[0];
    const beans = await phoneShare(photo, 'beans');
    const maize = await phoneShare(photo, 'maize');
    expect((await server.classify(photo, { crop: 'beans' })).rust_share).toBeCloseTo(beans ?? Number.NaN, 2);
    expect((await server.classify(photo, { crop: 'maize' })).rust_share).toBeCloseTo(maize ?? Number.NaN, 2);
    expect(maize).not.toBeCloseTo(beans ?? Number.NaN, 2);
  });
});
