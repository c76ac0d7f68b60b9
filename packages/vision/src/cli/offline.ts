/**
 * npm run model:offline [-- --model DIR]
 * Makes the phones' copy of the served model: writes model.int8.onnx (weight-only int8, see
 * recipe/quantize_int8.py), runs the evaluation photos through the server (sharp + onnxruntime-node,
 * float) and through the phone's path (pure-TS preprocessing + onnxruntime-web WASM) with the float
 * and the int8 model, prints how often each agrees with the server's answer, sizes and inference
 * times, and writes offline.json naming the file phones download: int8 only at ≥ 99 % agreement.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadClassifier, readCard } from '../classifier.ts';
import { describeFile, loadEvalSet, toCrop } from '../dataset.ts';
import { defaultModelDir } from '../index.ts';
import {
  INT8_FILE,
  loadWebModel,
  MIN_INT8_AGREEMENT,
  OFFLINE_INFO_FILE,
  type OfflineFileInfo,
  sameAnswer,
  sha256,
} from '../offline.ts';
import { pythonModule } from '../python.ts';
import { PYTHON } from '../train.ts';

const { values } = parseArgs({ options: { model: { type: 'string' } } });
const modelDir = path.resolve(values.model ?? defaultModelDir());
const card = await readCard(modelDir);
const floatFile = path.join(modelDir, 'model.onnx');
const int8File = path.join(modelDir, INT8_FILE);

const quantize = pythonModule('recipe.quantize_int8', [floatFile, int8File]);
execFileSync(PYTHON, quantize.args, { env: quantize.env, stdio: 'inherit' });

const server = await loadClassifier(modelDir);
const phoneFloat = await loadWebModel(floatFile, card);
const phoneInt8 = await loadWebModel(int8File, card);
const items = loadEvalSet();
let agreeFloat = 0;
let agreeInt8 = 0;
let maxProbDiff = 0;
const ms = { float: [] as number[], int8: [] as number[] };
const disagreements: string[] = [];
for (const item of items) {
  const image = await fs.readFile(item.file);
  const crop = toCrop(describeFile(item.file).crop);
  const served = await server.classify(image, { crop });
  const f = await phoneFloat.diagnose(image, crop);
  const q = await phoneInt8.diagnose(image, crop);
  ms.float.push(f.ms);
  ms.int8.push(q.ms);
  if (sameAnswer(served, f.diagnosis)) agreeFloat++;
  if (sameAnswer(served, q.diagnosis)) agreeInt8++;
  else disagreements.push(path.relative(path.dirname(path.dirname(item.file)), item.file));
  for (const [c, p] of Object.entries(served.probabilities))
    maxProbDiff = Math.max(
      maxProbDiff,
      Math.abs(p - q.diagnosis.probabilities[c as keyof typeof served.probabilities]),
    );
}
await Promise.all([server.close(), phoneFloat.close(), phoneInt8.close()]);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const floatBytes = (await fs.stat(floatFile)).size;
const int8Bytes = (await fs.stat(int8File)).size;
const int8Share = agreeInt8 / items.length;
const useInt8 = int8Share >= MIN_INT8_AGREEMENT;
const shipped = useInt8 ? int8File : floatFile;
if (!useInt8) await fs.rm(int8File);
const info: OfflineFileInfo = {
  file: path.basename(shipped),
  quantised: useInt8,
  bytes: (await fs.stat(shipped)).size,
  sha256: sha256(await fs.readFile(shipped)),
  float_bytes: floatBytes,
  int8_bytes: int8Bytes,
  agreement: { photos: items.length, float: agreeFloat / items.length, int8: int8Share },
};
await fs.writeFile(path.join(modelDir, OFFLINE_INFO_FILE), `${JSON.stringify(info, null, 2)}\n`);

const pct = (n: number) => `${(100 * n).toFixed(1)} %`;
console.log(`model ${card.version}: ${items.length} evaluation photos, answers compared with the server's`);
console.log(`  phone float (pure-TS preprocessing, onnxruntime-web WASM): ${pct(agreeFloat / items.length)} agree`);
console.log(
  `  phone int8 (same, weight-only int8): ${pct(int8Share)} agree; largest probability difference ${maxProbDiff.toFixed(4)}`,
);
if (disagreements.length > 0) console.log(`  int8 disagrees on: ${disagreements.join(', ')}`);
console.log(`  bytes: float ${floatBytes.toLocaleString('en')}, int8 ${int8Bytes.toLocaleString('en')}`);
console.log(
  `  WASM inference (1 thread, Node): median float ${median(ms.float).toFixed(1)} ms, int8 ${median(ms.int8).toFixed(1)} ms`,
);
console.log(
  `phones download ${info.file} (${info.bytes.toLocaleString('en')} bytes): ${useInt8 ? `int8 agrees on ≥ ${pct(MIN_INT8_AGREEMENT)}` : `int8 below ${pct(MIN_INT8_AGREEMENT)}, the float copy ships`}`,
);
