/**
 * Scores photos with a model on many views (the whole photo as served, a centre crop, 2×2 and 3×3 grids
 * of overlapping tiles cut from the upright original) and writes one JSON line per photo with each view's
 * four probabilities and ood score, so combination rules can be compared offline (combine.py):
 *
 *   node packages/vision/research/multicrop/dump_views.ts MODEL_DIR OUT.jsonl (--data DIR | --eval-set | --nonleaf DIR)...
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { defaultDatasetDir, listImagesRecursive, listLabelledImages, loadEvalSet } from '../../src/dataset.ts';
import { colourStats } from '../../src/decide.ts';
import { decodeRgb, toTensorData } from '../../src/preprocess.ts';
import { pixelBox, tileBoxes } from './boxes.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    data: { type: 'string', multiple: true },
    'eval-set': { type: 'boolean', default: false },
    nonleaf: { type: 'string', multiple: true },
    tag: { type: 'string', default: '' },
    size: { type: 'string', default: '128' },
    'whole-only': { type: 'boolean', default: false },
  },
});
const [modelDir, outFile] = positionals;
const size = Number(values.size);
const items: { file: string; label: string; source?: string; setting?: string }[] = [];
for (const d of values.data ?? []) items.push(...listLabelledImages(path.resolve(d)));
if (values['eval-set']) items.push(...loadEvalSet(defaultDatasetDir));
for (const d of values.nonleaf ?? [])
  items.push(...listImagesRecursive(path.resolve(d)).map((file) => ({ file, label: 'not_leaf', source: 'nonleaf' })));

const session = await ort.InferenceSession.create(path.join(modelDir, 'model.onnx'), {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
});
const VIEWS: Record<string, { left: number; top: number; width: number; height: number }[]> = {
  centre: [{ left: 0.15, top: 0.15, width: 0.7, height: 0.7 }],
  g2: tileBoxes(2, 0.6),
  g3: tileBoxes(3, 0.45),
};
const out = fs.createWriteStream(outFile, { flags: 'a' });
for (const [n, item] of items.entries()) {
  const upright = await sharp(item.file)
    .rotate()
    .flatten({ background: '#ffffff' })
    .toBuffer({ resolveWithObject: true });
  const { width: W, height: H } = upright.info;
  const wholeRgb = await decodeRgb(item.file, size);
  const colours = colourStats(wholeRgb);
  const flipped = await sharp(wholeRgb, { raw: { width: size, height: size, channels: 3 } })
    .flop()
    .raw()
    .toBuffer();
  const tensors: Float32Array[] = [toTensorData(wholeRgb, size), toTensorData(flipped, size)];
  const names = ['whole', 'hflip'];
  for (const [view, boxes] of Object.entries(values['whole-only'] ? {} : VIEWS)) {
    for (const [i, b] of boxes.entries()) {
      const box = pixelBox(b, W, H);
      const rgb = await sharp(upright.data)
        .extract(box)
        .resize(size, size, { fit: 'fill', kernel: 'lanczos3' })
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer();
      tensors.push(toTensorData(rgb, size));
      names.push(`${view}${i}`);
    }
  }
  const batch = new Float32Array(tensors.length * 3 * size * size);
  for (const [i, t] of tensors.entries()) batch.set(t, i * t.length);
  const res = await session.run({ input: new ort.Tensor('float32', batch, [tensors.length, 3, size, size]) });
  const logits = res.logits.data as Float32Array;
  const ood = res.ood ? (res.ood.data as Float32Array) : null;
  const views: Record<string, { p: number[]; ood: number | null }> = {};
  names.forEach((name, i) => {
    const l = Array.from(logits.subarray(i * 4, i * 4 + 4));
    const m = Math.max(...l);
    const e = l.map((v) => Math.exp(v - m));
    const s = e.reduce((a, b) => a + b, 0);
    views[name] = {
      p: e.map((v) => Math.round((v / s) * 1e5) / 1e5),
      ood: ood ? Math.round(ood[i] * 1000) / 1000 : null,
    };
  });
  out.write(
    `${JSON.stringify({ tag: values.tag, file: path.basename(item.file), label: item.label, source: item.source, setting: item.setting, colours, views })}\n`,
  );
  if (n % 100 === 0) console.error(`${n}/${items.length}`);
}
out.end();
await session.release();
