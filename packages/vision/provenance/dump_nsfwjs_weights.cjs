// Dumps nsfwjs' TF.js MobileNetV2 weights (8-bit quantised, base64 inside a .min.js bundle) as float32 +
// manifest.json for convert_nsfwjs_mobilenet.py. Usage: node dump_nsfwjs_weights.cjs MODEL_DIR OUT_DIR
const fs = require('node:fs');
const path = require('node:path');
const [dir, out] = process.argv.slice(2);
const model = require(path.resolve(dir, 'model.min.js'));
const shard = Buffer.from(require(path.resolve(dir, 'group1-shard1of1.min.js')), 'base64');
let offset = 0;
const parts = [];
const manifest = [];
for (const w of model.weightsManifest[0].weights) {
  const n = w.shape.reduce((a, b) => a * b, 1);
  const { scale, min } = w.quantization;
  const values = Float32Array.from(shard.subarray(offset, offset + n), (q) => q * scale + min);
  offset += n;
  parts.push(Buffer.from(values.buffer));
  manifest.push({ name: w.name, shape: w.shape });
}
if (offset !== shard.length) throw new Error(`read ${offset} of ${shard.length} bytes`);
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'weights.f32'), Buffer.concat(parts));
fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest));
