/**
 * Starts a retraining of the served model's head in Node (decision 0029) with its work under the folder
 * given as the first argument, and prints each progress stage. work-dir.test.ts kills this process with
 * SIGKILL during the feature stage and checks what it left, and where.
 */
import path from 'node:path';
import { defaultModelDir, listLabelledImages, trainModel } from '../src/index.ts';

const fixtures = path.resolve(import.meta.dirname, 'fixtures');
const workDir = process.argv[2];
await trainModel({
  dataDirs: [path.join(fixtures, 'leaves')],
  evalItems: listLabelledImages(path.join(fixtures, 'leaves')).slice(0, 2),
  outDir: path.join(workDir, 'out', 'refit'),
  version: 'killed-test',
  initFrom: defaultModelDir(),
  epochs: 1,
  threads: 1,
  workDir,
  onProgress: (p) => console.log(`stage ${p.stage}`),
});
