import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  leafPrint,
  PRINT_SIDE,
  printFromText,
  printLikeness,
  printToText,
  SAME_LEAF_AT,
  sameLeaf,
} from './leaf-print.ts';
import { photoPrint } from './photo-print.ts';

const photo = (file: string) => readFileSync(path.join(import.meta.dirname, '../../../datasets/rust3', file));
const rust = photo('common_rust/ibean__bean__bean_rust__0040.jpg');

describe('leaf prints (one leaf counts once)', () => {
  it('finds one leaf again: cropped, mirrored, dimmer and brighter', async () => {
    const print = await photoPrint(rust);
    const { width = 0, height = 0 } = await sharp(rust).metadata();
    const copies = [
      sharp(rust).extract({
        left: 0,
        top: Math.round(height * 0.25),
        width: Math.round(width * 0.75),
        height: Math.round(height * 0.75),
      }),
      sharp(rust).flop(),
      sharp(rust).linear(0.6, 0),
      sharp(rust).linear(1.4, 0),
      sharp(rust)
        .rotate(0)
        .resize(Math.round(width / 2)),
    ];
    for (const copy of copies) {
      const likeness = printLikeness(print, await photoPrint(await copy.jpeg({ quality: 80 }).toBuffer()));
      expect(likeness).toBeGreaterThanOrEqual(SAME_LEAF_AT);
    }
  });

  it('keeps different leaves of one source and class apart', async () => {
    const print = await photoPrint(rust);
    for (const other of ['ibean__bean__bean_rust__0002.jpg', 'ibean__bean__bean_rust__0006.jpg']) {
      expect(sameLeaf(print, await photoPrint(photo(`common_rust/${other}`)))).toBe(false);
    }
  });

  it('reads RGBA as RGB, and travels as text unchanged', () => {
    const rgb = Uint8Array.from({ length: 64 * 64 * 3 }, (_, i) => (i * 7) % 256);
    const rgba = new Uint8Array(64 * 64 * 4);
    for (let p = 0; p < 64 * 64; p++) rgba.set([...rgb.subarray(p * 3, p * 3 + 3), 255], p * 4);
    const print = leafPrint(rgb, 64, 64, 3);
    expect(print).toHaveLength(PRINT_SIDE * PRINT_SIDE);
    expect(leafPrint(rgba, 64, 64, 4)).toEqual(print);
    expect(printFromText(printToText(print))).toEqual(print);
  });
});
