import sharp from 'sharp';
import { type HeatGrid, heatmapSize, heatRgba } from './heat.ts';

export { classHeat, HEATMAP_SIDE, type HeatGrid } from './heat.ts';

/**
 * The overlay PNG of a normalised map for a photo of this (upright) size: the pixels `heatRgba` makes,
 * which the phone's offline diagnosis draws too.
 */
export async function heatmapPng(grid: HeatGrid, photoWidth: number, photoHeight: number): Promise<Buffer> {
  const { width, height } = heatmapSize(photoWidth, photoHeight);
  return sharp(Buffer.from(heatRgba(grid, width, height).buffer), { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}
