import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelInput } from './browser.ts';
import { cardSettings } from './card-settings.ts';
import { type Classifier, loadClassifier } from './classifier.ts';
import { packageRoot } from './dataset.ts';
import { defaultModelDir } from './index.ts';
import { decodeRgb } from './preprocess.ts';
import { bandOf, rustPixels, rustShareOf, severityCropOf } from './severity.ts';
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

/** The served card's leaf cut (`answer.leafConfidence`), which the phone applies as the server does. */
const CUT = cardSettings(JSON.parse(fs.readFileSync(path.join(defaultModelDir(), 'model.json'), 'utf8'))).answer
  .leafConfidence;

/** The pixels a phone's browser hands the offline engine: upright RGBA at the photo's own size, as 160 px input. */
async function phonePixels(photo: Buffer) {
  const { data, info } = await sharp(photo).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: modelInput(data, info.width, info.height, 160).rgb, aspect: info.width / info.height };
}

/** The phone's share at a leaf cut (the served one unless said): `rustShareOf`, as the engine's reading gives it. */
async function phoneShare(photo: Buffer, crop: string, cut = CUT) {
  return rustShareOf((await phonePixels(photo)).rgb, 160, crop, cut);
}

/** The phone's whole reading (share and rings), as `lib/offline/engine.ts` takes it. */
async function phoneReading(photo: Buffer, crop: string) {
  const { rgb, aspect } = await phonePixels(photo);
  return rustReading(rgb, 160, crop, aspect, CUT);
}

/** How clearly each side finds the leaf: the server's pixels (sharp's resize) and the phone's. */
async function confidences(photo: Buffer, crop: string) {
  const read = async (rgb: Uint8Array) => rustPixels(rgb, 160, severityCropOf(crop), true, 0)?.leaf?.confidence ?? 0;
  return { server: await read(await decodeRgb(photo, 160)), phone: await read((await phonePixels(photo)).rgb) };
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

  it('gives the same share and band for the same photo and crop, and finds the leaf as clearly', async () => {
    let measured = 0;
    for (const [name, photo, crop] of photos) {
      const served = await server.classify(photo, { crop });
      const { server: onServerLeaf, phone: onPhoneLeaf } = await confidences(photo, crop);
      // The same cut on both, on confidences a few hundredths apart at most.
      expect(Math.abs(onServerLeaf - onPhoneLeaf), name).toBeLessThan(0.05);
      expect(served.rust_share === null, name).toBe(onServerLeaf < CUT);
      if (served.rust_share !== null) measured++;
      // The shares themselves, read on both whatever the cut.
      const onServer = rustShareOf(await decodeRgb(photo, 160), 160, crop, 0);
      const onPhone = await phoneShare(photo, crop, 0);
      expect(onServer, name).not.toBeNull();
      expect(Math.abs((onPhone ?? Number.NaN) - (onServer ?? Number.NaN)), name).toBeLessThan(0.005);
      const { severityCuts } = cardSettings(server.card).answer;
      expect(bandOf(onPhone ?? 0, severityCuts), name).toBe(bandOf(onServer ?? 0, severityCuts));
    }
    expect(measured).toBeGreaterThanOrEqual(2);
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
    // The leaf of the two committed bean leaves with its pustules' halos in view.
    const [name, photo] = photos.find(([file]) => file === 'ibean__bean__bean_rust__0006.jpg') ?? photos[0];
    // Read with no leaf cut: the leaf found may differ by crop (the rules say which pixels are rust-coloured).
    const beans = await phoneShare(photo, 'beans', 0);
    const maize = await phoneShare(photo, 'maize', 0);
    const onServer = await decodeRgb(photo, 160);
    expect(beans, name).not.toBeNull();
    expect(rustShareOf(onServer, 160, 'beans', 0)).toBeCloseTo(beans ?? Number.NaN, 2);
    expect(rustShareOf(onServer, 160, 'maize', 0)).toBeCloseTo(maize ?? Number.NaN, 2);
    expect(maize).not.toBeCloseTo(beans ?? Number.NaN, 2);
  });
});
