import zlib from 'node:zlib';
import { type HeatGrid, heatmapSize, heatRgba } from './heat.ts';
import { scratch } from './scratch.ts';

export { classHeat, HEATMAP_SIDE, type HeatGrid } from './heat.ts';

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** One PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * The overlay PNG of a normalised map for a photo of this (upright) size: the pixels `heatRgba` makes, which the
 * phone's offline diagnosis draws too. 8-bit RGBA, written here with node:zlib: a sharp pipeline cost more to start
 * than this small image costs to encode, and deflating filtered rows at level 3 takes a quarter of the CPU time of
 * sharp's unfiltered level 6, in about half the bytes (bench/reports/0094-classify-allocations.md).
 * `heatmap.test.ts` decodes it with libvips.
 */
export async function heatmapPng(grid: HeatGrid, photoWidth: number, photoHeight: number): Promise<Buffer> {
  const { width, height } = heatmapSize(photoWidth, photoHeight);
  const row = width * 4;
  const rgba = heatRgba(grid, width, height, scratch('heatmapPng.rgba', Uint8ClampedArray, row * height));
  // Each row starts with its filter type, 1 ("sub"): each byte less the same channel's byte one pixel to the left.
  // The map is smooth, so the differences are mostly 0 and deflate to half the bytes of unfiltered rows.
  const rows = scratch('heatmapPng.rows', Uint8Array, (row + 1) * height);
  for (let y = 0; y < height; y++) {
    const [from, to] = [y * row, y * (row + 1)];
    rows[to] = 1;
    for (let x = 0; x < row; x++) rows[to + 1 + x] = rgba[from + x] - (x >= 4 ? rgba[from + x - 4] : 0);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // colour type: RGBA
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 3 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
