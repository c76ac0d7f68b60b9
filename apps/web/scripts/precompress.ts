/**
 * Writes `<file>.br` (brotli) and `<file>.gz` (gzip, level 9) beside every text file of the built web
 * app and onnxruntime's wasm, once at build time, so the server sends them without compressing per
 * request (@fastify/static `preCompressed`). Files under 1 KiB gain too little to be worth a second
 * request path. Usage: node scripts/precompress.ts [dist]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

// `.data`: the phone's voice files (scripts/voice-data.ts), 874 KB that brotli takes to 397.
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|topojson|webmanifest|txt|map|wasm|data)$/;
const MIN_BYTES = 1024;
/**
 * Brotli 11 on the 14 MB wasm takes 43 s for 2.36 MB; quality 9 takes 2 s for 2.69 MB (decision 0017).
 * Files this big get quality 9 so the build stays quick.
 */
const BIG_BYTES = 4 * 1024 * 1024;

export function precompress(dir: string): { files: number; raw: number; brotli: number; gzip: number } {
  const totals = { files: 0, raw: 0, brotli: 0, gzip: 0 };
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = fs.readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    const br = zlib.brotliCompressSync(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: bytes.length > BIG_BYTES ? 9 : 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    });
    const gz = zlib.gzipSync(bytes, { level: 9 });
    fs.writeFileSync(`${file}.br`, br);
    fs.writeFileSync(`${file}.gz`, gz);
    totals.files++;
    totals.raw += bytes.length;
    totals.brotli += br.length;
    totals.gzip += gz.length;
  }
  return totals;
}

if (import.meta.main) {
  const dir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../dist'));
  const t = precompress(dir);
  const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(`precompressed ${t.files} files: ${kib(t.raw)} → brotli ${kib(t.brotli)}, gzip ${kib(t.gzip)}`);
}
