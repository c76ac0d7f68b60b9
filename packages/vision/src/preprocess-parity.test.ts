import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Classifier, loadClassifier, readCard } from './classifier.ts';
import { packageRoot } from './dataset.ts';
import { defaultModelDir } from './index.ts';
import { browserInput, loadWebModel, readOfflineInfo, sameAnswer } from './offline.ts';
import { INPUT_SIZE, preprocess } from './preprocess.ts';

/**
 * The phone's path (upright RGBA from the browser's decoder → pure-TS Lanczos-3 → normalise, then
 * onnxruntime-web with the file phones download) against the server's (sharp → onnxruntime-node, float
 * model) on the committed photos, plus phone-shaped variants: 1600×1200 JPEG, EXIF-rotated, transparent PNG.
 *
 * Tolerance, in normalised units (one 8-bit level is 1/255/0.224 ≈ 0.0175): mean absolute difference
 * ≤ 0.03 and 99th percentile ≤ 0.15. Measured: the 256 px dataset photos differ by ≤ 0.0042 on average
 * (p99 one level); the 1600×1200 JPEG by 0.022 (p99 0.12), because libvips decodes large JPEGs at a
 * reduced scale (shrink-on-load) before its Lanczos-3 while the phone filters the full-size pixels.
 * The answers must be the same and every class probability within 0.07. (0.03 held for v1.2's int8 copy.
 * v2 is a MobileNetV2 with int8 pointwise kernels: on the committed photos its int8 copy moves a class
 * probability by up to 0.066, the phone's float path by up to 0.014. The int8 copy still gives the float
 * path's answers: 99.1 % agreement with the server on the 318 evaluation photos, `npm run model:offline`.)
 */
const MEAN_TOLERANCE = 0.03;
const P99_TOLERANCE = 0.15;
const PROBABILITY_TOLERANCE = 0.07;
/** A heatmap cell (0..1 after scaling) may differ by this much: the int8 copy moves the class maps a little. */
const HEAT_TOLERANCE = 0.1;

const fixtures = path.join(packageRoot, 'test/fixtures');
const committed = [
  ...['common_rust', 'healthy', 'other_disease'].flatMap((c) =>
    fs.readdirSync(path.join(fixtures, 'leaves', c)).map((f) => path.join(fixtures, 'leaves', c, f)),
  ),
  ...fs
    .readdirSync(path.join(fixtures, 'nonleaf'))
    .slice(0, 8)
    .map((f) => path.join(fixtures, 'nonleaf', f)),
];

async function phoneShaped(): Promise<[string, Buffer][]> {
  const leaf = fs.readFileSync(committed[0]);
  const big = await sharp(leaf).resize(1600, 1200, { fit: 'fill', kernel: 'cubic' }).jpeg({ quality: 88 }).toBuffer();
  // Stored sideways with EXIF orientation 6, as phones save portrait photos.
  const sideways = await sharp(fs.readFileSync(committed[4]))
    .resize(900, 1200, { fit: 'fill' })
    .rotate(-90)
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
  const transparent = await sharp(fs.readFileSync(committed[8]))
    .ensureAlpha(0.6)
    .resize(400, 300, { fit: 'fill' })
    .png()
    .toBuffer();
  return [
    ['1600×1200 JPEG', big],
    ['EXIF orientation 6', sideways],
    ['transparent PNG', transparent],
  ];
}

describe('phone preprocessing and model against the server', () => {
  let server: Classifier;
  let phone: Awaited<ReturnType<typeof loadWebModel>>;
  const photos: [string, Buffer][] = committed.map((f) => [path.basename(f), fs.readFileSync(f)]);

  beforeAll(async () => {
    const dir = defaultModelDir();
    const info = await readOfflineInfo(dir);
    server = await loadClassifier(dir);
    phone = await loadWebModel(path.join(dir, info?.file ?? 'model.onnx'), await readCard(dir));
    photos.push(...(await phoneShaped()));
  });
  afterAll(async () => {
    await server?.close();
    await phone?.close();
  });

  it('makes the same input tensor within the stated tolerance', async () => {
    for (const [name, image] of photos) {
      const served = await preprocess(image);
      const { tensor } = await browserInput(image, INPUT_SIZE);
      expect(tensor.length, name).toBe(served.length);
      const diffs = Array.from(served, (v, i) => Math.abs(v - tensor[i])).sort((a, b) => a - b);
      const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
      const p99 = diffs[Math.floor(diffs.length * 0.99)];
      expect(mean, `${name}: mean difference`).toBeLessThanOrEqual(MEAN_TOLERANCE);
      expect(p99, `${name}: 99th percentile`).toBeLessThanOrEqual(P99_TOLERANCE);
    }
  });

  it('gives the same answer and close probabilities with the model phones download', async () => {
    expect(photos.length).toBeGreaterThan(20);
    for (const [name, image] of photos) {
      const served = await server.classify(image);
      const { diagnosis } = await phone.diagnose(image);
      expect(sameAnswer(served, diagnosis), `${name}: ${served.rust_class} vs ${diagnosis.rust_class}`).toBe(true);
      expect(diagnosis.model_version).toBe(served.model_version);
      for (const [c, p] of Object.entries(served.probabilities)) {
        const q = diagnosis.probabilities[c as keyof typeof served.probabilities];
        expect(Math.abs(p - q), `${name}: ${c}`).toBeLessThanOrEqual(PROBABILITY_TOLERANCE);
      }
    }
  });

  it('draws the same heatmap: the same cells, the same hottest cell, values within the stated tolerance', async () => {
    let compared = 0;
    for (const [name, image] of photos) {
      const served = await server.classify(image);
      const { heat } = await phone.diagnose(image);
      expect(heat === null, `${name}: a map on one side only`).toBe(!served.heat);
      if (!served.heat || !heat) continue;
      compared++;
      expect([heat.high, heat.wide], name).toEqual([served.heat.high, served.heat.wide]);
      const peak = (v: Float32Array) => v.indexOf(Math.max(...v));
      expect(peak(heat.values), `${name}: hottest cell`).toBe(peak(served.heat.values));
      const worst = Math.max(...Array.from(heat.values, (v, i) => Math.abs(v - served.heat!.values[i])));
      expect(worst, `${name}: largest difference of a cell`).toBeLessThanOrEqual(HEAT_TOLERANCE);
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('fails the check for a photo the phone would see mirrored (the comparison can tell)', async () => {
    const [, image] = photos[0];
    const mirrored = await sharp(image).flop().toBuffer();
    const served = await preprocess(image);
    const { tensor } = await browserInput(mirrored, INPUT_SIZE);
    const mean = served.reduce((a, v, i) => a + Math.abs(v - tensor[i]), 0) / served.length;
    expect(mean).toBeGreaterThan(MEAN_TOLERANCE);
  });
});
