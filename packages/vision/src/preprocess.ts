import sharp from 'sharp';
import { INPUT_SIZE, toTensorData } from './tensor.ts';

export { INPUT_SIZE, MEAN, STD, toTensorData } from './tensor.ts';

/**
 * Decodes any JPEG/PNG the way both the server and the trainer see it: EXIF orientation applied, alpha
 * flattened onto white, resized (squashed, not cropped) to size×size, RGB bytes in HWC order.
 * Training caches are built with this same function, so the model never sees a different pipeline.
 */
export async function decodeRgb(image: Buffer | string, size: number): Promise<Buffer> {
  return sharp(image, { failOn: 'none', limitInputPixels: 100_000_000 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize(size, size, { fit: 'fill', kernel: 'lanczos3' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer();
}

export async function preprocess(image: Buffer, size = INPUT_SIZE): Promise<Float32Array> {
  return toTensorData(await decodeRgb(image, size), size);
}
