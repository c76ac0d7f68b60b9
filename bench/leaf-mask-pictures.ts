/**
 * Before/after pictures for the model card (bench/leaf-mask.ts --pictures DIR): the model's 160 px input
 * shown at twice its size, left with the whole-photo rule's rings, right with the leaf found (outside it
 * darkened) and the rings drawn inside it; each side says its share.
 */
import path from 'node:path';
import sharp from 'sharp';
import type { RustSpots } from '../packages/vision/src/spots.ts';

const SIDE = 160;
const K = 2;

interface Reading {
  share: number | null;
  spots: RustSpots;
  mask: Uint8Array | null;
}

const rings = (spots: RustSpots) =>
  spots.boxes
    .map(
      ([x0, y0, x1, y1]) =>
        `<rect x="${x0 * K - 1}" y="${y0 * K - 1}" width="${(x1 - x0) * K + 2}" height="${(y1 - y0) * K + 2}" fill="none" stroke="#ffe14d" stroke-width="1.5"/>`,
    )
    .join('');

const label = (text: string) =>
  `<rect x="0" y="0" width="${SIDE * K}" height="18" fill="black" fill-opacity="0.6"/><text x="4" y="13" fill="white" font-family="sans-serif" font-size="12">${text}</text>`;

const share = (s: number | null) => (s === null ? 'share not measured' : `share ${(100 * s).toFixed(1)} %`);

/** Writes DIR/NAME.jpg: before | after, 640×320. */
export async function drawPair(
  { name, rgb, old, neu }: { name: string; rgb: Uint8Array; old: Reading; neu: Reading },
  dir: string,
) {
  const base = await sharp(Buffer.from(rgb), { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .resize(SIDE * K, SIDE * K, { kernel: 'nearest' })
    .png()
    .toBuffer();
  const shade = Buffer.alloc(SIDE * SIDE * 4);
  if (neu.mask) for (let i = 0; i < SIDE * SIDE; i++) if (!neu.mask[i]) shade.set([0, 0, 0, 150], i * 4);
  const shadePng = await sharp(shade, { raw: { width: SIDE, height: SIDE, channels: 4 } })
    .resize(SIDE * K, SIDE * K, { kernel: 'nearest' })
    .png()
    .toBuffer();
  const svg = (body: string) =>
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${SIDE * K}" height="${SIDE * K}">${body}</svg>`);
  const before = await sharp(base)
    .composite([
      { input: svg(rings(old.spots) + label(`before: ${old.spots.boxes.length} rings, ${share(old.share)}`)) },
    ])
    .png()
    .toBuffer();
  const after = await sharp(base)
    .composite([
      { input: shadePng },
      { input: svg(rings(neu.spots) + label(`leaf first: ${neu.spots.boxes.length} rings, ${share(neu.share)}`)) },
    ])
    .png()
    .toBuffer();
  await sharp({ create: { width: SIDE * K * 2, height: SIDE * K, channels: 3, background: '#fff' } })
    .composite([
      { input: before, left: 0, top: 0 },
      { input: after, left: SIDE * K, top: 0 },
    ])
    .jpeg({ quality: 78 })
    .toFile(path.join(dir, `${name}.jpg`));
}
