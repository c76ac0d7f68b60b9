import sharp, { type Sharp } from 'sharp';
import { INPUT_SIZE, toTensorData } from './tensor.ts';

export { INPUT_SIZE, MEAN, STD, toTensorData } from './tensor.ts';

/**
 * Decodes any JPEG/PNG the way both the server and the trainer see it: EXIF orientation applied, alpha
 * flattened onto white, resized (squashed, not cropped) to size×size, RGB bytes in HWC order.
 * Training caches are built with this same function, so the model never sees a different pipeline.
 */
export async function decodeRgb(image: Buffer | string, size: number): Promise<Buffer> {
  return modelRgb(open(image), size);
}

/**
 * `decodeRgb` and the upright photo's size (after EXIF rotation) from one sharp instance: a second instance
 * for the size cost classify() about 0.7 ms of CPU time a photo (bench/reports/0094-classify-allocations.md).
 */
export async function decodeUpright(image: Buffer, size: number) {
  const photo = open(image);
  const meta = await photo.metadata();
  const { width, height } = meta.autoOrient ?? { width: meta.width ?? size, height: meta.height ?? size };
  return { rgb: await modelRgb(photo, size), width, height };
}

const open = (image: Buffer | string) => sharp(image, { failOn: 'none', limitInputPixels: 100_000_000 });

const modelRgb = (photo: Sharp, size: number) =>
  photo
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize(size, size, { fit: 'fill', kernel: 'lanczos3' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer();

export async function preprocess(image: Buffer, size = INPUT_SIZE): Promise<Float32Array> {
  return toTensorData(await decodeRgb(image, size), size);
}
