import sharp from 'sharp';

/** The model's input side in pixels; training crops are taken to this size too. */
export const INPUT_SIZE = 128;
/** ImageNet statistics, used by the trainer as well. */
export const MEAN = [0.485, 0.456, 0.406] as const;
export const STD = [0.229, 0.224, 0.225] as const;

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

/** HWC bytes → normalised CHW float32, the ONNX model's input. */
export function toTensorData(rgb: Uint8Array, size: number): Float32Array {
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) out[c * plane + i] = (rgb[i * 3 + c] / 255 - MEAN[c]) / STD[c];
  }
  return out;
}

export async function preprocess(image: Buffer, size = INPUT_SIZE): Promise<Float32Array> {
  return toTensorData(await decodeRgb(image, size), size);
}
