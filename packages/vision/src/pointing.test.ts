import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultDatasetDir } from './dataset.ts';
import type { HeatGrid } from './heat.ts';
import {
  decodeRuns,
  encodeRuns,
  loadPustuleMasks,
  MASK_SIZE,
  PEAK_TOLERANCE,
  type PustuleMask,
  pointAt,
  pointingRegressions,
  summarisePointing,
} from './pointing.ts';

const n = MASK_SIZE * MASK_SIZE;

/** A leaf over the whole photo with one square pustule patch at (x, y), side `side` pixels. */
function maskWithPatch(x: number, y: number, side: number): PustuleMask {
  const pustule = new Uint8Array(n);
  for (let yy = y; yy < y + side; yy++) pustule.fill(1, yy * MASK_SIZE + x, yy * MASK_SIZE + x + side);
  return { file: 'synthetic.jpg', crop: 'maize', pustule, leaf: new Uint8Array(n).fill(1) };
}

/** A 10×10 map, cold everywhere but one hot cell. */
function hotCell(cx: number, cy: number): HeatGrid {
  const values = new Float32Array(100);
  values[cy * 10 + cx] = 1;
  return { values, high: 10, wide: 10 };
}

describe('pustule masks and the pointing figures', () => {
  it('stores masks as run lengths that decode to the same pixels', () => {
    const bits = Uint8Array.from({ length: n }, (_, i) => (i % 7 === 0 || i > n - 5 ? 1 : 0));
    expect(decodeRuns(encodeRuns(bits), n)).toEqual(bits);
    expect(() => decodeRuns('3 4', n)).toThrow(/add up/);
  });

  it('loads at least 40 checked masks of both crops, each of a rusty field photo in the repository', () => {
    const masks = loadPustuleMasks();
    expect(masks.length).toBeGreaterThanOrEqual(40);
    expect(new Set(masks.map((m) => m.crop))).toEqual(new Set(['maize', 'beans']));
    for (const m of masks) {
      expect(m.file).toMatch(/^common_rust\/(plantdoc|ibean)__/);
      expect(fs.existsSync(`${defaultDatasetDir}/${m.file}`)).toBe(true);
      const pustules = m.pustule.reduce((a, b) => a + b, 0);
      expect(pustules).toBeGreaterThan(0);
      // Pustules lie on the leaf.
      expect(m.pustule.every((p, i) => !p || m.leaf[i])).toBe(true);
    }
  });

  it('counts a peak on the pustules, within the tolerance, and not one a cell away', () => {
    // Patch over cell (7, 2) of a 10×10 grid (cells of 16 px).
    const mask = maskWithPatch(7 * 16 + 4, 2 * 16 + 4, 8);
    expect(pointAt(hotCell(7, 2), mask).peakOnPustule).toBe(true);
    expect(pointAt(hotCell(2, 7), mask).peakOnPustule).toBe(false);
    // The neighbouring cell's centre is 16 px away: more than the tolerance from the patch's edge (12 px).
    expect(PEAK_TOLERANCE).toBeLessThan(12);
    expect(pointAt(hotCell(8, 2), mask).peakOnPustule).toBe(false);
  });

  it('compares the heat on pustules with the heat on the rest of the leaf', () => {
    const mask = maskWithPatch(7 * 16, 2 * 16, 16);
    const onTarget = pointAt(hotCell(7, 2), mask);
    expect(onTarget.heatOnPustules).toBeGreaterThan(0.3);
    expect(onTarget.heatOnLeaf).toBeLessThan(0.01);
    const flat: HeatGrid = { values: new Float32Array(100).fill(0.5), high: 10, wide: 10 };
    const r = summarisePointing([
      { crop: 'maize', pointing: onTarget },
      { crop: 'beans', pointing: pointAt(flat, mask) },
      { crop: 'beans', pointing: null },
    ]);
    expect(r.photos).toBe(3);
    expect(r.noMap).toBe(1);
    expect(r.byCrop.beans.photos).toBe(2);
    expect(r.byCrop.maize.peakOnPustule).toBe(1);
    expect(r.heatRatio).toBeGreaterThan(1);
  });

  it('reports a regression only beyond the slack below the recorded figures', () => {
    const recorded = { peakOnPustule: 0.5, heatRatio: 1.3 };
    expect(pointingRegressions({ peakOnPustule: 0.45, heatRatio: 1.2 }, recorded)).toEqual([]);
    expect(pointingRegressions({ peakOnPustule: 0.3, heatRatio: 1.3 }, recorded)).toHaveLength(1);
    expect(pointingRegressions({ peakOnPustule: 0.5, heatRatio: 1.0 }, recorded)).toHaveLength(1);
    expect(pointingRegressions({ peakOnPustule: 0, heatRatio: 0 }, undefined)).toEqual([]);
  });
});
