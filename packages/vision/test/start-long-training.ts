/**
 * Starts a long retraining on the committed fixtures, the way the server does (trainModel spawns the
 * Python trainer), and prints each progress stage. parent-watch.test.ts kills this process with
 * SIGKILL and checks that the trainer goes with it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listLabelledImages, trainModel } from '../src/index.ts';

const fixtures = path.resolve(import.meta.dirname, 'fixtures');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-parent-watch-'));
await trainModel({
  dataDirs: [path.join(fixtures, 'leaves')],
  evalItems: listLabelledImages(path.join(fixtures, 'leaves')).slice(0, 2),
  outDir: path.join(out, 'long'),
  version: 'long-test',
  epochs: 50,
  threads: 1,
  // Thousands of synthetic images make an epoch last far longer than the test waits.
  extraTrainerArgs: ['--synthetic', '6000', '--nonleaf-repeats', '1', '--batch', '16'],
  onProgress: (p) => console.log(`stage ${p.stage}`),
});
