/**
 * Draws each outlined photo as the model sees it (160 px, squashed), twice its size: the hand outline in cyan,
 * outside the leaf mask darkened, and the rings the reading draws with no cut in red, with the leaf confidence.
 * To check the outlines and the mask by eye.
 *
 *   node packages/vision/research/leaf-outlines/draw.ts OUT_DIR [NAME_PART ...]
 *   OUTLINES=other.json node packages/vision/research/leaf-outlines/draw.ts OUT_DIR   (outlines from another file)
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { defaultDatasetDir } from '../../src/dataset.ts';
import { loadOutlines, OUTLINE_SIDE as S } from '../../src/leaf-check.ts';
import { decodeRgb } from '../../src/preprocess.ts';
import { rustPixels } from '../../src/severity.ts';
import { spotsOfPixels } from '../../src/spots.ts';

const [out, ...parts] = process.argv.slice(2);
if (!out) throw new Error('usage: draw.ts OUT_DIR [NAME_PART ...]');
fs.mkdirSync(out, { recursive: true });
const Z = 2;
for (const p of loadOutlines(process.env.OUTLINES ? path.resolve(process.env.OUTLINES) : undefined).filter(
  (o) => parts.length === 0 || parts.some((n) => o.file.includes(n)),
)) {
  const rgb = await decodeRgb(path.join(defaultDatasetDir, p.file), S);
  const read = rustPixels(rgb, S, p.crop, true, 0);
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${S * Z}" height="${S * Z}" viewBox="0 0 ${S} ${S}">`;
  const mask = read?.leaf?.mask;
  if (mask)
    for (let y = 0; y < S; y++)
      for (let x = 0; x < S; x++)
        if (!mask[y * S + x]) svg += `<rect x="${x}" y="${y}" width="1" height="1" fill="#000" fill-opacity="0.6"/>`;
  for (const poly of p.leaf ?? [])
    svg += `<polygon points="${poly.map(([x, y]) => `${(x * S) / p.width},${(y * S) / p.height}`).join(' ')}" fill="none" stroke="#0ff" stroke-width="0.6"/>`;
  for (const [x0, y0, x1, y1] of read ? spotsOfPixels(read.kind, S).boxes : [])
    svg += `<rect x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" fill="none" stroke="#f00" stroke-width="0.6"/>`;
  svg += `<text x="2" y="157" font-size="7" fill="#ff0">${path.basename(p.file, '.jpg')} leaf ${(read?.leaf?.confidence ?? 0).toFixed(2)}</text></svg>`;
  await sharp(rgb, { raw: { width: S, height: S, channels: 3 } })
    .resize(S * Z, S * Z, { kernel: 'nearest' })
    .composite([{ input: Buffer.from(svg) }])
    .png()
    .toFile(path.join(out, `${path.basename(p.file, '.jpg')}.png`));
}
