import { describe, expect, it } from 'vitest';
import { classHeat, heatmapSize, heatRgba, resampleHeat } from './heat.ts';

describe('the normalised class map', () => {
  it('reads the colder half of the cells as cold and the hottest as 1, whatever one outlier does', () => {
    // Class 1 of 2 on a 5×5 grid: a slope from 0 to 24, plus one far outlier.
    const cells = 25;
    const cam = new Float32Array(2 * cells);
    for (let i = 0; i < cells; i++) cam[cells + i] = i;
    cam[cells + 24] = 1000;
    const heat = classHeat(cam, [1, 2, 5, 5], 1);
    expect(heat).not.toBeNull();
    const { values, high, wide } = heat!;
    expect([high, wide]).toEqual([5, 5]);
    expect(values.filter((v) => v === 0).length).toBeGreaterThanOrEqual(13);
    expect(values[24]).toBe(1);
    // Min–max would have squashed every cell but the outlier below 0.03; these stay visible.
    expect(values[23]).toBeGreaterThan(0);
    expect(values[20]).toBeGreaterThan(0);
  });

  it('is null when the map is flat', () => {
    expect(classHeat(new Float32Array(25).fill(3), [1, 1, 5, 5], 0)).toBeNull();
  });

  it('resamples between cell centres and colours hot pixels opaque, cold ones clear', () => {
    const grid = { values: Float32Array.of(0, 1), high: 1, wide: 2 };
    const row = resampleHeat(grid, 4, 1);
    expect(Array.from(row)).toEqual([0, 0.25, 0.75, 1]);
    const rgba = heatRgba(grid, 4, 1);
    expect(rgba[3]).toBe(0);
    expect(rgba[15]).toBeGreaterThan(150);
    expect(heatmapSize(4000, 3000)).toEqual({ width: 224, height: 168 });
  });
});
