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
 * phone's offline diagnosis draws too. 8-bit RGBA, rows unfiltered, deflated at level 6: what sharp wrote before,
 * in a third of the CPU time, since sharp's pipeline costs more to start than this small image costs to encode
 * (bench/reports/0094-classify-allocations.md). `heatmap.test.ts` decodes it with sharp.
 */
export async function heatmapPng(grid: HeatGrid, photoWidth: number, photoHeight: number): Promise<Buffer> {
  const { width, height } = heatmapSize(photoWidth, photoHeight);
  const row = width * 4;
  const rgba = heatRgba(grid, width, height, scratch('heatmapPng.rgba', Uint8ClampedArray, row * height));
  // Each row starts with its filter type, 0 (none).
  const rows = scratch('heatmapPng.rows', Uint8Array, (row + 1) * height);
  for (let y = 0; y < height; y++) rows.set(rgba.subarray(y * row, (y + 1) * row), y * (row + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // colour type: RGBA
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
