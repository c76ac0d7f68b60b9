import { describe, expect, it } from 'vitest';
import { MEAN, STD, toTensorData } from './tensor.ts';

describe('toTensorData', () => {
  it('writes (byte ÷ 255 − mean) ÷ std for every byte value, one channel plane after another', () => {
    const size = 16;
    const plane = size * size;
    const rgb = new Uint8Array(3 * plane);
    for (let i = 0; i < plane; i++) [rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2]] = [i, 255 - i, (i * 7) % 256];
    const expected = new Float32Array(3 * plane);
    for (let c = 0; c < 3; c++)
      for (let i = 0; i < plane; i++) expected[c * plane + i] = (rgb[i * 3 + c] / 255 - MEAN[c]) / STD[c];
    expect(Buffer.from(toTensorData(rgb, size).buffer)).toEqual(Buffer.from(expected.buffer));
    const into = new Float32Array(3 * plane);
    expect(toTensorData(rgb, size, into)).toBe(into);
  });
});
