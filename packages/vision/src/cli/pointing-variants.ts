/**
 * node packages/vision/src/cli/pointing-variants.ts [--model DIR]
 * The heatmap variants tried in docs/decisions/0039, each measured with the pointing figures
 * on the pustule masks: the class map at the model's 5×5 grid with min–max (before) or median–99th
 * percentile scaling (served), finer grids from the same network run "à trous" (withDenseCam), the network
 * on a 2× and 3× larger picture (its cells see a smaller part of the leaf, like overlapping tiles), and
 * per-window rust probabilities (3×3 cells averaged, softmax: the answer a tile of that size would get).
 * Prints one line per variant with the model time per photo (onnxruntime-node, one thread).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { defaultDatasetDir } from '../dataset.ts';
import { classHeat, type HeatGrid } from '../heat.ts';
import { defaultModelDir } from '../index.ts';
import { withAnySize, withDenseCam } from '../onnx-dense.ts';
import { loadPustuleMasks, type PhotoPointing, pointAt, summarisePointing } from '../pointing.ts';
import { decodeRgb, toTensorData } from '../preprocess.ts';

const { values } = parseArgs({ options: { model: { type: 'string' } } });
const modelDir = path.resolve(values.model ?? defaultModelDir());
const file = fs.readFileSync(path.join(modelDir, 'model.onnx'));
const opts = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' as const };
const plain = await ort.InferenceSession.create(withAnySize(file), opts);
const dense = {
  1: await ort.InferenceSession.create(withAnySize(withDenseCam(file, 1)), opts),
  2: await ort.InferenceSession.create(withAnySize(withDenseCam(file, 2)), opts),
};

function minMax(cam: Float32Array, dims: number[]): HeatGrid | null {
  const [, , high, wide] = dims;
  const map = cam.subarray(0, high * wide);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of map) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return hi - lo > 1e-6 ? { values: map.map((v) => (v - lo) / (hi - lo)), high, wide } : null;
}

/** Rust probability of every 3×3-cell window (class maps averaged over it, softmax over the leaf classes). */
function windowRust(cam: Float32Array, dims: number[]): HeatGrid | null {
  const [, classes, high, wide] = dims;
  const probs = new Float32Array(high * wide);
  for (let y = 0; y < high; y++)
    for (let x = 0; x < wide; x++) {
      const means: number[] = [];
      for (let k = 0; k < Math.min(classes, 3); k++) {
        let s = 0;
        let n = 0;
        for (let yy = Math.max(0, y - 1); yy <= Math.min(high - 1, y + 1); yy++)
          for (let xx = Math.max(0, x - 1); xx <= Math.min(wide - 1, x + 1); xx++) {
            s += cam[k * high * wide + yy * wide + xx];
            n++;
          }
        means.push(s / n);
      }
      const top = Math.max(...means);
      const e = means.map((m) => Math.exp(m - top));
      probs[y * wide + x] = e[0] / e.reduce((a, b) => a + b, 0);
    }
  return classHeat(probs, [1, 1, high, wide], 0);
}

interface Variant {
  name: string;
  zoom: number;
  session: ort.InferenceSession;
  map: (cam: Float32Array, dims: number[]) => HeatGrid | null;
}
const percentile = (cam: Float32Array, dims: number[]) => classHeat(cam, dims, 0);
const variants: Variant[] = [
  { name: '5×5, min–max (before)', zoom: 1, session: plain, map: minMax },
  { name: '5×5, median–p99 (served)', zoom: 1, session: plain, map: percentile },
  { name: '10×10 à trous, median–p99', zoom: 1, session: dense[1], map: percentile },
  { name: '20×20 à trous, median–p99', zoom: 1, session: dense[2], map: percentile },
  { name: '10×10 à trous, 3×3-window rust prob.', zoom: 1, session: dense[1], map: windowRust },
  { name: '2× picture 10×10, median–p99', zoom: 2, session: plain, map: percentile },
  { name: '2× picture 10×10, 3×3-window rust prob.', zoom: 2, session: plain, map: windowRust },
  { name: '3× picture 15×15, median–p99', zoom: 3, session: plain, map: percentile },
  { name: '3× picture 15×15, 3×3-window rust prob.', zoom: 3, session: plain, map: windowRust },
];

const masks = loadPustuleMasks();
const results = variants.map(() => [] as { crop: string; pointing: PhotoPointing | null }[]);
const times = variants.map(() => 0);
const size = 160;
for (const mask of masks) {
  const photo = fs.readFileSync(path.join(defaultDatasetDir, mask.file));
  for (const [i, v] of variants.entries()) {
    const side = size * v.zoom;
    const input = new ort.Tensor('float32', toTensorData(await decodeRgb(photo, side), side), [1, 3, side, side]);
    const started = performance.now();
    const out = await v.session.run({ input });
    times[i] += performance.now() - started;
    const heat = v.map(out.cam.data as Float32Array, out.cam.dims as number[]);
    results[i].push({ crop: mask.crop, pointing: heat ? pointAt(heat, mask) : null });
  }
}
const pct = (x: number) => `${(x * 100).toFixed(0)}%`.padStart(4);
console.log(`${masks.length} masked photos; model ${path.basename(modelDir)}`);
console.log(`${'variant'.padEnd(42)} peak  ratio   maize peak/ratio  beans peak/ratio  model ms`);
for (const [i, v] of variants.entries()) {
  const s = summarisePointing(results[i]);
  const crop = (c: string) => `${pct(s.byCrop[c]?.peakOnPustule ?? 0)} ${(s.byCrop[c]?.heatRatio ?? 0).toFixed(2)}×`;
  console.log(
    `${v.name.padEnd(42)} ${pct(s.peakOnPustule)}  ${s.heatRatio.toFixed(2)}×   ${crop('maize').padEnd(16)}  ${crop('beans').padEnd(16)}  ${(times[i] / masks.length).toFixed(0).padStart(5)}`,
  );
}
