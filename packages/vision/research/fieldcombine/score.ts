/**
 * Each field photo of the evaluation set scored once by the served model (its outputs, before any cut),
 * written as JSON for `combine.ts`, which then tries field rules without running the network again.
 *
 *   node packages/vision/research/fieldcombine/score.ts [--out FILE]
 *
 * Default output: scores-<version>.json beside this file. Photos: eval-set.json's field items (iBean beans;
 * the network never trained on them), read from datasets/rust3.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDatasetDir, loadEvalSet } from '../../src/dataset.ts';
import { evaluateModel } from '../../src/evaluate.ts';
import type { ScoredPhoto } from '../../src/risk.ts';
import { readCard } from '../../src/classifier.ts';
import { defaultModelDir } from '../../src/index.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const modelDir = defaultModelDir();
const card = await readCard(modelDir);
const items = loadEvalSet(defaultDatasetDir).filter((i) => i.setting === 'field');
const photos: ScoredPhoto[] = [];
await evaluateModel(modelDir, items, [], {
  onPhoto: (p) => photos.push({ ...p, file: path.basename(p.file) }),
  onItem: (done, total) => done % 20 === 0 && console.error(`${done}/${total}`),
});
const out = values.out ?? path.join(import.meta.dirname, `scores-${card.version}.json`);
writeFileSync(out, `${JSON.stringify({ model: card.version, photos }, null, 0)}\n`);
console.log(`${photos.length} photos scored by ${card.version} -> ${out}`);
