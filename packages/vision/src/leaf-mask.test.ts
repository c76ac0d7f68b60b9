import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cardSettings } from './card-settings.ts';
import { readCard } from './classifier.ts';
import { defaultDatasetDir } from './dataset.ts';
import { defaultModelDir } from './index.ts';
import { loadOutlines, outlineOf, ringedOn } from './leaf-check.ts';
import { leafMask } from './leaf-mask.ts';
import { decodeRgb } from './preprocess.ts';
import { rustPixels, severityUnmeasured } from './severity.ts';
import { rustReading, spotsOfPixels } from './spots.ts';

/** The served card's cut: rings and a share only where the leaf is found at least this clearly. */
const CUT = cardSettings(await readCard(defaultModelDir())).answer.leafConfidence;

const side = 160;
const LEAF = [60, 140, 50];
const RUST = [190, 90, 30];
const SOIL = [150, 80, 35];

/** Fine grain, as a surface in focus has (±`amount`, the same every run). */
const grain = (x: number, y: number, amount = 8) => (((x * 7 + y * 13 + ((x * y) % 7)) % 5) - 2) * (amount / 2);

/** A photo painted pixel by pixel: `paint(x, y)` gives the colour, grain added where `sharp(x, y)`. */
function photo(paint: (x: number, y: number) => number[], sharp: (x: number, y: number) => boolean = () => true) {
  const rgb = new Uint8Array(side * side * 3);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const g = sharp(x, y) ? grain(x, y) : 0;
      rgb.set(
        paint(x, y).map((c) => Math.max(0, Math.min(255, Math.round(c + g)))),
        (y * side + x) * 3,
      );
    }
  return rgb;
}

/** The leaf: an ellipse around the centre, 50 × 35 px. */
const onLeaf = (x: number, y: number, grow = 0) => ((x - 80) / (50 + grow)) ** 2 + ((y - 80) / (35 + grow)) ** 2 <= 1;
/** Five 3×3 pustules well inside the leaf. */
const PUSTULES = [
  [60, 70],
  [80, 80],
  [100, 75],
  [75, 95],
  [95, 62],
];
const onPustule = (x: number, y: number) => PUSTULES.some(([px, py]) => x >= px && x < px + 3 && y >= py && y < py + 3);

/** Every ring lies on the leaf (a pixel of slack for its edge). */
const ringsOnLeaf = (boxes: [number, number, number, number][]) =>
  boxes.every(([x0, y0, x1, y1]) =>
    [
      [x0, y0],
      [x1 - 1, y0],
      [x0, y1 - 1],
      [x1 - 1, y1 - 1],
    ].every(([x, y]) => onLeaf(x, y, 1)),
  );

describe('the leaf in focus (leaf-mask.ts)', () => {
  it('rings only the pustules on a green leaf lying on rust-coloured soil, and reads its share on the leaf', () => {
    // Soil in focus, with darker clods, right up to the leaf's edge.
    const rgb = photo((x, y) =>
      onLeaf(x, y) ? (onPustule(x, y) ? RUST : LEAF) : (x * 3 + y * 5) % 17 < 3 ? [120, 62, 30] : SOIL,
    );
    const before = rustPixels(rgb, side, 'maize', false);
    const beforeSpots = rustReading(rgb, side, 'maize', 1, CUT);
    const after = rustPixels(rgb, side, 'maize', true, CUT);
    expect(after?.leaf?.confidence).toBeGreaterThanOrEqual(CUT);
    const { spots, share } = beforeSpots;
    expect(spots?.boxes).toHaveLength(PUSTULES.length);
    expect(ringsOnLeaf(spots?.boxes ?? [])).toBe(true);
    // 45 pustule pixels on a leaf of about 5,500.
    expect(share).toBeGreaterThan(0.006);
    expect(share).toBeLessThan(0.01);
    // The whole-photo rule counted the soil along the leaf's edge as rust.
    expect((before?.rust ?? 0) / ((before?.greens ?? 0) + (before?.rust ?? 0))).toBeGreaterThan(0.05);
    expect(after?.rust).toBe(45);
  });

  it('leaves out blurred plants behind the leaf, and the rust-coloured blur among them', () => {
    // Behind the leaf: soft green with soft orange patches (no fine detail: out of focus).
    const behind = (x: number, y: number) => {
      const wave = Math.sin(x / 9) * Math.cos(y / 11);
      const t = Math.max(0, Math.min(1, (wave - 0.3) / 0.5));
      const green = [50 + 20 * wave, 120 + 25 * wave, 45];
      return green.map((c, k) => c + t * ([170, 95, 40][k] - c));
    };
    const rgb = photo(
      (x, y) => (onLeaf(x, y) ? (onPustule(x, y) ? RUST : LEAF) : behind(x, y)),
      (x, y) => onLeaf(x, y),
    );
    const read = rustPixels(rgb, side, 'maize', true, CUT);
    const mask = read?.leaf?.mask ?? new Uint8Array(0);
    let both = 0;
    let either = 0;
    for (let y = 0; y < side; y++)
      for (let x = 0; x < side; x++) {
        const truth = onLeaf(x, y) ? 1 : 0;
        both += mask[y * side + x] & truth;
        either += mask[y * side + x] | truth;
      }
    // Focus is read over a 9 px box, so a band of background about 4 px wide along the leaf's edge reads sharp.
    expect(both / either).toBeGreaterThan(0.8);
    const { spots } = rustReading(rgb, side, 'maize', 1, CUT);
    expect(spots?.boxes).toHaveLength(PUSTULES.length);
    expect(ringsOnLeaf(spots?.boxes ?? [])).toBe(true);
    // The whole-photo rule read the blurred background's green and orange too.
    const before = rustPixels(rgb, side, 'maize', false);
    expect(before?.greens).toBeGreaterThan(2 * (read?.greens ?? 0));
  });

  it('gives no share and draws no rings when no one leaf stands out (weeds scattered on soil)', () => {
    // Sixty 5×5 seedlings over the soil: 6 % of the photo green, in no leaf.
    const rgb = photo((x, y) => (x % 20 < 5 && y % 20 < 5 && (x + y) % 40 < 20 ? LEAF : SOIL));
    expect(rustPixels(rgb, side, 'maize', false)).not.toBeNull();
    const green = rustPixels(rgb, side, 'maize', false)?.kind ?? new Uint8Array(0);
    expect(leafMask(rgb, side, green).confidence).toBeLessThan(CUT);
    expect(rustReading(rgb, side, 'maize', 1, CUT)).toEqual({ share: null, spots: null });
    expect(rustReading(rgb, side, 'beans', 1, CUT)).toEqual({ share: null, spots: null });
  });

  it('rings nothing on a field photo where the leaf cannot be told apart: a bean leaflet held among seedlings', async () => {
    // The photo a new user saw ringed on the soil and a fingernail (research/leaf-outlines, outlined by hand).
    const photo = loadOutlines().find((p) => p.file.endsWith('ibean__bean__bean_rust__0001.jpg'));
    if (!photo) throw new Error('outline missing');
    const rgb = await decodeRgb(path.join(defaultDatasetDir, photo.file), side);
    const read = rustPixels(rgb, side, 'beans', true, 0);
    expect(read?.leaf?.confidence).toBeLessThan(CUT);
    expect(rustReading(rgb, side, 'beans', 1, CUT)).toEqual({ share: null, spots: null });
    // The whole-photo rule's rings, which the farmer no longer sees, lie mostly off the outlined leaflet.
    const whole = rustPixels(rgb, side, 'beans', false);
    const before = ringedOn(spotsOfPixels(whole?.kind ?? new Uint8Array(0), side), outlineOf(photo));
    expect(before.ringPx).toBeGreaterThan(0);
    expect(before.onLeafPx / before.ringPx).toBeLessThan(0.5);
  });

  it('says the share could not be measured on a confident rust answer only', () => {
    const rust = { outcome: 'diagnosis', rustClass: 'common_rust', unsure: false };
    expect(severityUnmeasured(rust, null)).toBe(true);
    expect(severityUnmeasured(rust, 0.04)).toBe(false);
    expect(severityUnmeasured({ ...rust, unsure: true }, null)).toBe(false);
    expect(severityUnmeasured({ ...rust, rustClass: 'healthy' }, null)).toBe(false);
    expect(severityUnmeasured({ outcome: 'not_leaf', rustClass: null, unsure: false }, null)).toBe(false);
  });
});
