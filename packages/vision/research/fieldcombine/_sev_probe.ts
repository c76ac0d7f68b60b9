import { readFileSync, readdirSync } from 'node:fs';
import sharp from 'sharp';
import { decodeRgb } from '/work/wt-doubt/packages/vision/src/preprocess.ts';
import { rgbaToModelRgb } from '/work/wt-doubt/packages/vision/src/tensor.ts';
import { rustShareOf } from '/work/wt-doubt/packages/vision/src/severity.ts';
async function both(buf: Buffer, crop: string) {
  const server = rustShareOf(new Uint8Array(await decodeRgb(buf, 160)), 160, crop);
  const { data, info } = await sharp(buf).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const phone = rustShareOf(rgbaToModelRgb(new Uint8Array(data), info.width, info.height, 160), 160, crop);
  return [server, phone].map((v) => v == null ? 'null' : (v * 100).toFixed(1));
}
const f = readFileSync('/work/wt-doubt/apps/server/test/fixtures/bean-rust.jpg');
const meta = await sharp(f).metadata();
console.log('bean-rust', meta.width, meta.height, await both(f, 'beans'));
for (const w of [800, 1280, 1600, 2400]) {
  const big = await sharp(f).resize(w, Math.round(w * meta.height! / meta.width!), { kernel: 'cubic' }).jpeg({ quality: 85 }).toBuffer();
  console.log('bean-rust at', w, await both(big, 'beans'));
}
