import sharp from 'sharp';
import { leafPrint, PRINT_SOURCE_SIDE } from './leaf-print.ts';

/** A photo's print on the server (`leafPrint`): upright (EXIF), squashed to PRINT_SOURCE_SIDE² RGB by sharp. */
export async function photoPrint(image: Buffer): Promise<Uint8Array> {
  const { data, info } = await sharp(image)
    .rotate()
    .resize(PRINT_SOURCE_SIDE, PRINT_SOURCE_SIDE, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return leafPrint(data, info.width, info.height, 3);
}
