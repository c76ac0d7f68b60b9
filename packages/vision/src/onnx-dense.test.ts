import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { defaultModelDir } from './index.ts';
import { withAnySize, withDenseCam } from './onnx-dense.ts';
import { preprocess } from './preprocess.ts';

const photo = path.resolve(
  import.meta.dirname,
  '../test/fixtures/leaves/common_rust/plantvillage__maize__common_rust__0019.jpg',
);

describe('the served graph edited for finer maps (pointing variants, docs/decisions/0039)', () => {
  it('keeps logits and ood, and holds the original 5×5 map at every other cell of the 10×10 one', async () => {
    const file = fs.readFileSync(path.join(defaultModelDir(), 'model.onnx'));
    const input = new ort.Tensor('float32', await preprocess(fs.readFileSync(photo), 160), [1, 3, 160, 160]);
    const base = await (await ort.InferenceSession.create(file)).run({ input });
    const dense = await (await ort.InferenceSession.create(withDenseCam(file, 1))).run({ input });
    expect(dense.cam.dims).toEqual([1, 4, 10, 10]);
    const close = (a: ArrayLike<number>, b: ArrayLike<number>) =>
      Array.from(a).every((v, i) => Math.abs(v - b[i]) < 1e-4);
    expect(close(dense.logits.data as Float32Array, base.logits.data as Float32Array)).toBe(true);
    expect(close(dense.ood.data as Float32Array, base.ood.data as Float32Array)).toBe(true);
    const c0 = base.cam.data as Float32Array;
    const c1 = dense.cam.data as Float32Array;
    const every = Array.from({ length: 25 }, (_, i) => c1[Math.floor(i / 5) * 20 + (i % 5) * 2]);
    expect(close(every, c0.subarray(0, 25))).toBe(true);
    // The cells between are maps of their own, not copies.
    expect(Math.abs(c1[1] - c1[0])).toBeGreaterThan(1e-4);
  });

  it('runs on a larger picture once the input shape is free', async () => {
    const file = fs.readFileSync(path.join(defaultModelDir(), 'model.onnx'));
    const s = await ort.InferenceSession.create(withAnySize(file));
    const out = await s.run({
      input: new ort.Tensor('float32', await preprocess(fs.readFileSync(photo), 320), [1, 3, 320, 320]),
    });
    expect(out.cam.dims).toEqual([1, 4, 10, 10]);
  });
});
