// The zod- and onnx-free subpath: the upload screen checks leaves with it, online or not.
import { leafPrint, PRINT_SOURCE_SIDE, sameLeaf } from '@kutu/vision/leaf-print';

/**
 * A photo's print on the phone (`leafPrint` of @kutu/vision, as the server makes it with sharp): upright,
 * squashed to PRINT_SOURCE_SIDE² on a canvas. Null where the browser cannot decode it here (the server
 * still checks the leaf when it arrives).
 */
export async function printOfPhoto(photo: Blob): Promise<Uint8Array | null> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas === 'undefined') return null;
  try {
    const bitmap = await createImageBitmap(photo, { imageOrientation: 'from-image' });
    try {
      const canvas = new OffscreenCanvas(PRINT_SOURCE_SIDE, PRINT_SOURCE_SIDE);
      const ctx = canvas.getContext('2d');
      if (!ctx) return null;
      ctx.drawImage(bitmap, 0, 0, PRINT_SOURCE_SIDE, PRINT_SOURCE_SIDE);
      const { data } = ctx.getImageData(0, 0, PRINT_SOURCE_SIDE, PRINT_SOURCE_SIDE);
      return leafPrint(data, PRINT_SOURCE_SIDE, PRINT_SOURCE_SIDE, 4);
    } finally {
      bitmap.close();
    }
  } catch {
    return null;
  }
}

/**
 * Which of the field's leaves (their prints, in order) this one repeats (`sameLeaf`: the same photo, a crop,
 * the mirror image or another exposure of one leaf): its index, or -1. One leaf counts once.
 */
export function repeatedLeaf(print: Uint8Array | null, others: (Uint8Array | null)[]): number {
  if (!print) return -1;
  return others.findIndex((other) => other !== null && sameLeaf(other, print));
}
