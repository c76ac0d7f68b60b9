/**
 * The field gate's simulation reads every rust3 photo through the served backbone once: its pooled
 * features (orig and mirrored, as a retraining's head refit reads them), the negatives' features (the
 * refit's "not a leaf" rows) and each photo's colour statistics (the served `decide()`'s leaf checks).
 * A head refit and its answers then cost no inference (simulate.ts).
 *
 *   node packages/vision/research/fieldgate/features.ts --cache DIR [--threads 2]
 *
 * Writes DIR/train.{json,f32}, DIR/nonleaf.{json,f32} (features.ts's layout, what refit.ts reads) and
 * DIR/colours.json; a file already there is kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { colourStats } from '../../src/decide.ts';
import { defaultDatasetDir, listImagesRecursive, listLabelledImages, nonLeafDir } from '../../src/dataset.ts';
import { writeFeatures } from '../../src/features.ts';
import { defaultModelDir } from '../../src/index.ts';
import { withFeatureOutput } from '../../src/onnx-edit.ts';
import { decodeRgb } from '../../src/preprocess.ts';

const { values } = parseArgs({ options: { cache: { type: 'string' }, threads: { type: 'string', default: '2' } } });
if (!values.cache) throw new Error('--cache DIR is required');
const cache = path.resolve(values.cache);
fs.mkdirSync(cache, { recursive: true });
const threads = Number(values.threads);
const served = defaultModelDir();
const size: number = JSON.parse(fs.readFileSync(path.join(served, 'model.json'), 'utf8')).input_size;
const featuresOnnx = path.join(cache, 'features.onnx');
fs.writeFileSync(featuresOnnx, withFeatureOutput(fs.readFileSync(path.join(served, 'model.onnx'))));

const started = Date.now();
const photos = listLabelledImages(defaultDatasetDir);
const progress = (name: string) => (done: number, total: number) => {
  if (done % 400 < 16 || done === total) console.log(JSON.stringify({ [name]: `${done}/${total}` }));
};
if (!fs.existsSync(path.join(cache, 'nonleaf.json'))) {
  const negatives = listImagesRecursive(nonLeafDir).map((file) => ({ file, label: 'not_leaf' }));
  await writeFeatures(cache, 'nonleaf', negatives, ['orig', 'hflip', 'crop1', 'crop2', 'crop3'], featuresOnnx, {
    threads,
    size,
  });
}
if (!fs.existsSync(path.join(cache, 'train.json'))) {
  await writeFeatures(cache, 'train', photos, ['orig', 'hflip'], featuresOnnx, {
    threads,
    size,
    onProgress: progress('features'),
  });
}
if (!fs.existsSync(path.join(cache, 'colours.json'))) {
  const colours: Record<string, ReturnType<typeof colourStats>> = {};
  for (const p of photos) colours[path.basename(p.file)] = colourStats(await decodeRgb(p.file, size));
  fs.writeFileSync(path.join(cache, 'colours.json'), JSON.stringify(colours));
}
console.log(JSON.stringify({ photos: photos.length, seconds: Math.round((Date.now() - started) / 1000) }));
