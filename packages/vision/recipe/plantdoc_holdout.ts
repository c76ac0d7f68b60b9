/**
 * One held-out fold of the PlantDoc field maize photos, to measure a model trained with the other two
 * thirds (the field maize figure of docs/decisions/0013, one fold of three). Every third photo of each
 * class in name order is held out.
 * Writes `<out>/train/<class>/` (symlinks to every rust3 photo except the fold) and `<out>/fold/<class>/`
 * (the fold), then: npm run model:train -- --data <out>/train ...; npm run model:eval -- --data <out>/fold
 *
 *   node packages/vision/recipe/plantdoc_holdout.ts /tmp/pd-fold [fold 0|1|2]
 */
import fs from 'node:fs';
import path from 'node:path';
import { CLASSES, defaultDatasetDir } from '../src/dataset.ts';

const out = path.resolve(process.argv[2] ?? '/tmp/pd-fold');
const fold = Number(process.argv[3] ?? 0);
fs.rmSync(out, { recursive: true, force: true });
let held = 0;
let kept = 0;
for (const label of CLASSES) {
  for (const part of ['train', 'fold']) fs.mkdirSync(path.join(out, part, label), { recursive: true });
  const names = fs.readdirSync(path.join(defaultDatasetDir, label)).sort();
  const plantdoc = names.filter((n) => n.startsWith('plantdoc__'));
  const inFold = new Set(plantdoc.filter((_, i) => i % 3 === fold));
  for (const name of names) {
    const part = inFold.has(name) ? 'fold' : 'train';
    fs.symlinkSync(path.join(defaultDatasetDir, label, name), path.join(out, part, label, name));
    if (part === 'fold') held++;
    else kept++;
  }
}
console.log(`fold ${fold}: ${held} PlantDoc photos held out in ${out}/fold, ${kept} photos in ${out}/train`);
