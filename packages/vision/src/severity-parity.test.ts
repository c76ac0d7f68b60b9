import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelInput } from './browser.ts';
import { cardSettings } from './card-settings.ts';
import { type Classifier, loadClassifier } from './classifier.ts';
import { packageRoot } from './dataset.ts';
import { defaultModelDir } from './index.ts';
import { bandOf, rustShareOf } from './severity.ts';
import { rustReading } from './spots.ts';

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

/** The phone's whole reading (share and rings), as `lib/offline/engine.ts` takes it. */
async function phoneReading(photo: Buffer, crop: string) {
  const { data, info } = await sharp(photo).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return rustReading(modelInput(data, info.width, info.height, 160).rgb, 160, crop, info.width / info.height);
}

/** A committed rusty maize leaf on rust-coloured soil (drawn grain, so the soil is in focus), 1200×900 JPEG. */
async function onSoil(leaf: Buffer) {
  const [w, h] = [1200, 900];
  const soil = Buffer.alloc(w * h * 3);
  for (let i = 0; i < w * h; i++) {
    const d = ((i * 7919) % 61) - 30;
    soil.set([150 + d, 80 + d / 2, 35 + d / 3], i * 3);
  }
  const pasted = await sharp(leaf).resize(700, 700, { fit: 'fill' }).toBuffer();
  return sharp(soil, { raw: { width: w, height: h, channels: 3 } })
    .composite([{ input: pasted, left: 250, top: 100 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** No one leaf: seedlings scattered over soil, 640 px (each 20 px seedling a 5 px patch at the model's size). */
async function weeds() {
  const side = 640;
  const rgb = Buffer.alloc(side * side * 3);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const [cx, cy] = [Math.floor(x / 4), Math.floor(y / 4)];
      const seedling = cx % 20 < 5 && cy % 20 < 5 && (cx + cy) % 40 < 20;
      const d = ((x * 31 + y * 17) % 21) - 10;
      rgb.set(seedling ? [60 + d, 140 + d, 50 + d] : [150 + d, 80 + d, 35 + d], (y * side + x) * 3);
    }
  return sharp(rgb, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
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
      const { severityCuts } = cardSettings(server.card).answer;
      expect(bandOf(onPhone ?? 0, severityCuts), name).toBe(bandOf(onServer ?? 0, severityCuts));
    }
  });

  it('finds the same leaf on both: a rusty leaf on rust-coloured soil reads the same share, and no leaf reads none', async () => {
    const [, leaf] = photos.find(([name]) => name.startsWith('plantvillage')) ?? photos[0];
    const composite = await onSoil(leaf);
    const onServer = await server.classify(composite, { crop: 'maize' });
    const onPhone = await phoneReading(composite, 'maize');
    expect(onServer.rust_share).not.toBeNull();
    expect(Math.abs((onPhone.share ?? Number.NaN) - (onServer.rust_share ?? Number.NaN))).toBeLessThan(0.005);
    expect(onPhone.spots?.boxes.length).toBeGreaterThan(0);
    // Rings within a few of each other: the two resizes differ by a grey level here and there.
    expect(Math.abs((onPhone.spots?.boxes.length ?? 0) - (onServer.rust_spots?.boxes.length ?? 0))).toBeLessThanOrEqual(
      3,
    );

    const none = await weeds();
    const noneOnServer = await server.classify(none, { crop: 'maize' });
    expect(noneOnServer.rust_share).toBeNull();
    expect(noneOnServer.rust_spots).toBeNull();
    expect(await phoneReading(none, 'maize')).toEqual({ share: null, spots: null });
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
