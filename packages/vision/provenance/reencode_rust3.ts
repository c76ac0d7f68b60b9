import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
/**
 * How datasets/rust3 was made from the upstream rust3 v2 folder (256 px, q90):
 *   node packages/vision/provenance/reencode_rust3.ts SRC_DIR datasets/rust3
 * Every image: EXIF rotate, flatten on white, longer side shrunk to ≤224 px (lanczos3, never enlarged),
 * JPEG quality 80 (sharp/libvips, no mozjpeg). MANIFEST.csv gains repo_sha256, repo_w, repo_h.
 */
const [src, dst] = process.argv.slice(2);
if (!src || !dst) throw new Error('usage: reencode_rust3.ts SRC_DIR DST_DIR');
const lines = fs.readFileSync(`${src}/MANIFEST.csv`, 'utf8').trim().split('\n');
const out = [`${lines[0]},repo_sha256,repo_w,repo_h`];
for (const line of lines.slice(1)) {
  const file = line.split(',')[0];
  const p = path.join(dst, file);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  const { data, info } = await sharp(path.join(src, file))
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize(224, 224, { fit: 'inside', withoutEnlargement: true, kernel: 'lanczos3' })
    .jpeg({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  fs.writeFileSync(p, data);
  out.push(`${line},${crypto.createHash('sha256').update(data).digest('hex')},${info.width},${info.height}`);
}
fs.writeFileSync(`${dst}/MANIFEST.csv`, `${out.join('\n')}\n`);
console.log(out.length - 1);
