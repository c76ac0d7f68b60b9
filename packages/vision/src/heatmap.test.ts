import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Classifier, defaultDatasetDir, defaultModelDir, loadClassifier } from './index.ts';
import { heatRgba } from './heat.ts';
import { measurePointing, pointingRegressions } from './pointing.ts';

const fixtures = path.resolve(import.meta.dirname, '../test/fixtures');

/** Rust photos with a box (fractions of width/height: x0, y0, x1, y1) drawn by hand around the pustules. */
const PUSTULES: { file: string; box: [number, number, number, number]; what: string }[] = [
  {
    file: path.join(defaultDatasetDir, 'common_rust/plantdoc__maize__common_rust__0010.jpg'),
    box: [0, 0.35, 1, 0.85],
    what: 'field maize leaf, band of pustules across its middle; stalks above',
  },
  {
    file: path.join(defaultDatasetDir, 'common_rust/plantdoc__maize__common_rust__0016.jpg'),
    box: [0.05, 0, 0.72, 1],
    what: 'close-up, pustule cluster on the left two thirds; clean green leaf on the right',
  },
  {
    file: path.join(defaultDatasetDir, 'common_rust/ibean__bean__bean_rust__0020.jpg'),
    box: [0.55, 0.2, 1, 0.8],
    what: 'rusty bean leaf on the right; soil and other leaves around it',
  },
];

/** Mean opacity of the heatmap inside and outside a box (opacity grows with heat; 0 where cold). */
async function heatInBox(png: Buffer, [x0, y0, x1, y1]: [number, number, number, number]) {
  const { data, info } = await sharp(png).extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  let inside = 0;
  let nIn = 0;
  let outside = 0;
  let nOut = 0;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const fx = (x + 0.5) / info.width;
      const fy = (y + 0.5) / info.height;
      const a = data[y * info.width + x];
      if (fx >= x0 && fx <= x1 && fy >= y0 && fy <= y1) {
        inside += a;
        nIn++;
      } else {
        outside += a;
        nOut++;
      }
    }
  }
  return { inside: inside / nIn, outside: outside / nOut };
}

describe('the heatmap (class activation map) of a diagnosis', () => {
  let classifier: Classifier;
  beforeAll(async () => {
    classifier = await loadClassifier(defaultModelDir());
  });
  afterAll(() => classifier.close());

  it('is a PNG with the upright photo’s aspect ratio, transparent where cold and opaque where hot', async () => {
    const leaf = fs.readFileSync(path.join(fixtures, 'leaves/common_rust/plantvillage__maize__common_rust__0019.jpg'));
    // 256×128 pixels stored on their side; EXIF orientation 6 says the photo is 128 wide and 256 high.
    const sideways = await sharp(leaf)
      .resize(256, 128, { fit: 'fill' })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const d = await classifier.classify(sideways);
    expect(d.outcome).toBe('diagnosis');
    expect(d.heatmap_png).toBeInstanceOf(Buffer);
    const { data, info } = await sharp(d.heatmap_png!).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ format: 'raw', width: 112, height: 224, channels: 4 });
    // Decoded by another PNG reader (libvips's), it holds exactly the pixels the phone draws.
    expect(Buffer.compare(data, Buffer.from(heatRgba(d.heat!, 112, 224).buffer))).toBe(0);
    const alphas = Array.from({ length: info.width * info.height }, (_, i) => data[i * 4 + 3]);
    expect(Math.min(...alphas)).toBe(0);
    expect(Math.max(...alphas)).toBeGreaterThan(150);
  });

  it('is null when the photo is not a leaf', async () => {
    const d = await classifier.classify(fs.readFileSync(path.join(fixtures, 'nonleaf/kutu-own__document.png')));
    expect(d.outcome).toBe('not_leaf');
    expect(d.heatmap_png).toBeNull();
  });

  it.each(PUSTULES)('is hotter on the pustules than elsewhere: $what', async ({ file, box }) => {
    const d = await classifier.classify(fs.readFileSync(file));
    expect(d.rust_class).toBe('common_rust');
    const { inside, outside } = await heatInBox(d.heatmap_png!, box);
    expect(inside).toBeGreaterThan(outside * 1.2);
  });

  it('points at the pustules of the masked field photos no worse than the figures model.json records', async () => {
    const r = await measurePointing(classifier);
    expect(r.photos).toBeGreaterThanOrEqual(40);
    expect(r.noMap).toBe(0);
    const recorded = (classifier.card.metrics as { pointing?: { peak_on_pustule: number; heat_ratio: number } })
      .pointing;
    expect(recorded).toBeDefined();
    expect(
      pointingRegressions(r, { peakOnPustule: recorded?.peak_on_pustule, heatRatio: recorded?.heat_ratio }),
    ).toEqual([]);
  });
});
