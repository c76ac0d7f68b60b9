/**
 * The regions of the upright photo that multi-crop inference scores besides the whole photo (measured and
 * not shipped: see v1.2's card in the tag models/retired-v1, models/README.md). Boxes are fractions of the photo's width and height.
 */

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** n×n overlapping tiles, each `side` of the photo's width and height, spread evenly from edge to edge. */
export function tileBoxes(n: number, side: number): Box[] {
  const step = n > 1 ? (1 - side) / (n - 1) : 0;
  const boxes: Box[] = [];
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) boxes.push({ left: col * step, top: row * step, width: side, height: side });
  }
  return boxes;
}

/** A box in whole pixels of a width×height photo, at least 1 px and inside the photo. */
export function pixelBox(box: Box, width: number, height: number): Box {
  const left = Math.min(width - 1, Math.max(0, Math.round(box.left * width)));
  const top = Math.min(height - 1, Math.max(0, Math.round(box.top * height)));
  return {
    left,
    top,
    width: Math.max(1, Math.min(width - left, Math.round(box.width * width))),
    height: Math.max(1, Math.min(height - top, Math.round(box.height * height))),
  };
}
