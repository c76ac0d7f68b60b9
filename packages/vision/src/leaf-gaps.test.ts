import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cardSettings } from './card-settings.ts';
import { readCard } from './classifier.ts';
import { defaultDatasetDir } from './dataset.ts';
import { defaultModelDir } from './index.ts';
import { dropGaps } from './leaf-gaps.ts';
import { decodeRgb } from './preprocess.ts';
import { rustShareOf, shownShare } from './severity.ts';
import { rustReading } from './spots.ts';

const side = 40;
/** A leaf mask over the whole square but a band at the left, with the kinds `rustPixels` writes (1 green). */
function leafKinds(): { kind: Uint8Array; mask: Uint8Array } {
  const kind = new Uint8Array(side * side).fill(1);
  const mask = new Uint8Array(side * side).fill(1);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < 4; x++) {
      mask[y * side + x] = 0;
      kind[y * side + x] = 0;
    }
  return { kind, mask };
}
const paint = (kind: Uint8Array, x0: number, y0: number, x1: number, y1: number, k: number) => {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) kind[y * side + x] = k;
};
const counted = (kind: Uint8Array) => kind.filter((k) => k === 3).length;

describe('the second check on counted rust (decision 0120)', () => {
  it('keeps a small island of rust inside green leaf', () => {
    const { kind, mask } = leafKinds();
    paint(kind, 20, 20, 23, 23, 3);
    expect(dropGaps(kind, mask, side, 40)).toBe(0);
    expect(counted(kind)).toBe(9);
  });

  it('drops rust in a stretch of non-green that runs to the leaf mask’s edge: soil between leaflets, a stalk', () => {
    const { kind, mask } = leafKinds();
    // A brown channel from the mask's edge into the leaf (rust-coloured, not all counted), and a pustule apart.
    paint(kind, 4, 10, 18, 12, 2);
    paint(kind, 14, 10, 18, 12, 3);
    paint(kind, 30, 30, 32, 32, 3);
    expect(dropGaps(kind, mask, side, 40)).toBe(8);
    expect(counted(kind)).toBe(4);
    expect(kind[10 * side + 15]).toBe(2);
  });

  it('drops rust in a non-green hole larger than a pustule, inside the leaf', () => {
    const { kind, mask } = leafKinds();
    paint(kind, 10, 10, 19, 19, 2);
    paint(kind, 13, 13, 16, 16, 3);
    expect(dropGaps(kind, mask, side, 40)).toBe(9);
    expect(counted(kind)).toBe(0);
  });
});

/** The served card's leaf cut. */
const cut = cardSettings(await readCard(defaultModelDir())).answer.leafConfidence;

describe('the iBean photos a new user tried', () => {
  const read = async (name: string) =>
    rustReading(await decodeRgb(path.join(defaultDatasetDir, 'common_rust', name), 160), 160, 'beans', 1, cut);
  const rust = { outcome: 'diagnosis', rustClass: 'common_rust', unsure: false };

  it('0024: the soil between its leaflets and its stalk are no longer read as rust, so it reads "could not be measured"', async () => {
    // It read 1.08 % from seven rings on the soil between the leaflets and on the leaf stalk.
    const { share } = await read('ibean__bean__bean_rust__0024.jpg');
    expect(share).not.toBeNull();
    expect(share).toBeLessThan(0.01);
    expect(shownShare(rust, share)).toBeNull();
  });

  it.each(['ibean__bean__bean_rust__0007.jpg', 'ibean__bean__bean_rust__0008.jpg'])(
    '%s: pale pustules under 1 % of the leaf show no share and no rings',
    async (name) => {
      const { share } = await read(name);
      expect(share ?? 0).toBeLessThan(0.01);
      expect(shownShare(rust, share)).toBeNull();
    },
  );

  it('a bean leaf whose pustules the rule sees keeps its share and its rings inside the leaf (0199)', async () => {
    const { share, spots } = await read('ibean__bean__bean_rust__0199.jpg');
    expect(share).toBeGreaterThanOrEqual(0.01);
    expect(spots?.boxes.length).toBeGreaterThanOrEqual(5);
    // The same reading as the share the server stores (one reading, two results).
    const rgb = await decodeRgb(path.join(defaultDatasetDir, 'common_rust', 'ibean__bean__bean_rust__0199.jpg'), 160);
    expect(rustShareOf(rgb, 160, 'beans', cut)).toBe(share);
  });
});
