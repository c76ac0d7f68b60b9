import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listLabelledImages } from './dataset.ts';
import { writeFeatures } from './features.ts';
import { symmetricEigen } from './eigen.ts';
import { fitLinear, linearLogits, oodScores, oodStatistics, sampleWeights } from './head-fit.ts';
import { defaultModelDir } from './index.ts';
import { readOnnxHead, withFeatureOutput } from './onnx-edit.ts';
import { seededRandom } from './seeded-random.ts';

const fixtures = path.resolve(import.meta.dirname, '../test/fixtures');

const argmax = (logits: Float32Array, i: number, k: number) => {
  let best = 0;
  for (let c = 1; c < k; c++) if (logits[i * k + c] > logits[i * k + best]) best = c;
  return best;
};

describe('head refit in TypeScript', () => {
  it('converges on a separable synthetic set: every point right, loss near the label-smoothing floor', () => {
    const rand = seededRandom(7);
    const [n, dims, k] = [400, 24, 4];
    const x = new Float32Array(n * dims);
    const y = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      y[i] = i % k;
      for (let j = 0; j < dims; j++) x[i * dims + j] = rand() + (j === y[i] ? 3 : 0) + 100 * (j === dims - 1 ? 1 : 0);
    }
    const fit = fitLinear(
      x,
      y,
      sampleWeights(
        y,
        Array.from(y, () => 'lab'),
      ),
      dims,
      { classes: k },
    );
    const logits = linearLogits(x, dims, fit.weight, fit.bias);
    let right = 0;
    for (let i = 0; i < n; i++) if (argmax(logits, i, k) === y[i]) right++;
    expect(right).toBe(n);
    // Label smoothing 0.05 over 4 classes: the loss cannot go below about 0.1; a converged fit is close to it.
    expect(fit.loss).toBeLessThan(0.35);
    expect(fit.iterations).toBeGreaterThan(3);
  });

  it('weighs every (source, class) cell the same, field sources double (trainer/head.py)', () => {
    const w = sampleWeights([0, 0, 0, 1, 0, 1], ['lab', 'lab', 'lab', 'lab', 'ibean', 'ibean'], 2, ['ibean']);
    // lab/0: three photos of 1/3 each; lab/1, ibean/0, ibean/1: one photo of 1 each, ibean's doubled.
    const raw = [1 / 3, 1 / 3, 1 / 3, 1, 2, 2];
    const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
    expect([...w].map((v) => Number(v.toFixed(5)))).toEqual(raw.map((v) => Number((v / mean).toFixed(5))));
  });

  it('decomposes a symmetric matrix exactly (A·v = λ·v, ascending values)', () => {
    const rand = seededRandom(3);
    const n = 40;
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = i; j < n; j++) a[i * n + j] = a[j * n + i] = rand() - 0.5;
    const original = Float64Array.from(a);
    const values = symmetricEigen(a, n);
    for (let v = 0; v < n; v++) {
      if (v > 0) expect(values[v]).toBeGreaterThanOrEqual(values[v - 1]);
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += original[i * n + j] * a[v * n + j];
        expect(s).toBeCloseTo(values[v] * a[v * n + i], 9);
      }
    }
  });

  it('on real features of the served backbone: reproduces the served answers and scores its own photos as typical', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-headfit-'));
    try {
      const served = fs.readFileSync(path.join(defaultModelDir(), 'model.onnx'));
      fs.writeFileSync(path.join(dir, 'features.onnx'), withFeatureOutput(served));
      const items = listLabelledImages(path.join(fixtures, 'leaves'));
      const size = JSON.parse(fs.readFileSync(path.join(defaultModelDir(), 'model.json'), 'utf8')).input_size;
      await writeFeatures(dir, 'train', items, ['orig', 'hflip'], path.join(dir, 'features.onnx'), {
        threads: 1,
        size,
      });
      const raw = fs.readFileSync(path.join(dir, 'train.f32'));
      const x = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
      const dims = 1280;
      const n = x.length / dims;
      const labels = ['common_rust', 'healthy', 'other_disease'];
      const y = Int32Array.from({ length: n }, (_, i) => labels.indexOf(items[i % items.length].label));
      const head = readOnnxHead(served);
      // From scratch (no warm start), the refit learns the 24 real feature vectors.
      const fit = fitLinear(
        x,
        y,
        sampleWeights(
          y,
          Array.from(y, () => 'lab'),
        ),
        dims,
        { classes: 4 },
      );
      const logits = linearLogits(x, dims, fit.weight, fit.bias);
      for (let i = 0; i < n; i++) expect(argmax(logits, i, 4)).toBe(y[i]);
      // The served head agrees on these photos too (they are in its training set).
      const servedLogits = linearLogits(x, dims, head.weight, head.bias);
      for (let i = 0; i < n; i++) expect(argmax(servedLogits, i, 4)).toBe(y[i]);
      // Ood statistics fitted here score these photos low (k small: 24 vectors).
      const stats = oodStatistics(x, y, dims, 3, 8);
      const scores = oodScores(x, dims, stats);
      expect(Math.max(...scores)).toBeLessThan(2);
      // The served statistics, applied the served way, give finite scores.
      const servedScores = oodScores(x, dims, { projection: head.oodProjection, k: head.oodK, means: head.oodMeans });
      expect(servedScores.every((s) => Number.isFinite(s) && s >= 0)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
