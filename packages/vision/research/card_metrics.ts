/**
 * Writes the served metrics of a model directory into its model.json (`metrics`), with the commands that
 * reproduce each figure:  node packages/vision/research/card_metrics.ts MODEL_DIR
 * Sets: the evaluation set (with the non-leaf test photos), its field and lab parts, and the PlantDoc
 * field maize of datasets/rust3 (a source the KutuNet models never train on).
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  defaultDatasetDir,
  evaluateModel,
  listImagesRecursive,
  listLabelledImages,
  loadEvalSet,
} from '../src/index.ts';

const modelDir = path.resolve(process.argv[2]);
const fixtures = path.resolve(import.meta.dirname, '../test/fixtures/nonleaf');
const evalSet = loadEvalSet(defaultDatasetDir);
const plantdoc = listLabelledImages(defaultDatasetDir).filter((i) => i.source === 'plantdoc');
const rel = path.relative(process.cwd(), modelDir);
const metrics = {
  measured_at: new Date().toISOString(),
  note: 'Served model (model.onnx + src/preprocess.ts + the thresholds above). A leaf photo counts as correct only with a confident diagnosis of its class; unsure and "not a leaf" answers count as wrong.',
  eval_set: {
    ...(await evaluateModel(modelDir, evalSet, listImagesRecursive(fixtures))),
    nonleaf_photos: listImagesRecursive(fixtures).length,
  },
  eval_set_field: await evaluateModel(
    modelDir,
    evalSet.filter((i) => i.setting === 'field'),
  ),
  eval_set_lab: await evaluateModel(
    modelDir,
    evalSet.filter((i) => i.setting === 'lab'),
  ),
  plantdoc_field_maize: await evaluateModel(modelDir, plantdoc),
  commands: {
    eval_set: `npm run model:eval -- --model ${rel} --data datasets/rust3 --eval-set --nonleaf packages/vision/test/fixtures/nonleaf`,
    field: `npm run model:eval -- --model ${rel} --data datasets/rust3 --eval-set --setting field`,
    lab: `npm run model:eval -- --model ${rel} --data datasets/rust3 --eval-set --setting lab`,
    plantdoc_field_maize: `node packages/vision/research/card_metrics.ts ${rel} (the plantdoc__* photos of datasets/rust3)`,
  },
};
const cardFile = path.join(modelDir, 'model.json');
const card = JSON.parse(fs.readFileSync(cardFile, 'utf8'));
fs.writeFileSync(cardFile, `${JSON.stringify({ ...card, metrics }, null, 2)}\n`);
console.log(
  JSON.stringify({
    eval: metrics.eval_set.accuracy,
    field: metrics.eval_set_field.accuracy,
    plantdoc: metrics.plantdoc_field_maize.accuracy,
    plantdoc_rust_recall: metrics.plantdoc_field_maize.per_class.common_rust.recall,
    nonleaf: metrics.eval_set.nonleaf_rejected,
  }),
);
