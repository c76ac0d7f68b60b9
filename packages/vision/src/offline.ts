import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as ortWeb from 'onnxruntime-web';
import sharp from 'sharp';
import { type DiagnosisCore, diagnosisFromOutputs, type ModelCard, modelInput } from './browser.ts';

/** Written next to model.onnx by `npm run model:offline`: which file the phones download, and why. */
export interface OfflineModelInfo {
  /** model.int8.onnx when it agreed with the server on ≥ 99 % of the evaluation photos, else model.onnx. */
  file: string;
  quantised: boolean;
  bytes: number;
  sha256: string;
  float_bytes: number;
  int8_bytes: number | null;
  /** Share of evaluation photos whose answer (outcome, class, unsure) equals the server's. */
  agreement: { photos: number; float: number; int8: number | null };
}

export const OFFLINE_INFO_FILE = 'offline.json';
export const INT8_FILE = 'model.int8.onnx';
/** The quantised copy ships only at or above this agreement with the server's answers. */
export const MIN_INT8_AGREEMENT = 0.99;

export async function readOfflineInfo(modelDir: string): Promise<OfflineModelInfo | null> {
  try {
    return JSON.parse(await fs.readFile(path.join(modelDir, OFFLINE_INFO_FILE), 'utf8')) as OfflineModelInfo;
  } catch {
    return null;
  }
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The phone's pixels in Node: the browser hands `modelInput` upright RGBA at full size
 * (createImageBitmap with the EXIF orientation applied), and so does this.
 */
export async function browserInput(image: Buffer | string, size: number) {
  const { data, info } = await sharp(image, { failOn: 'none' })
    .rotate()
    .ensureAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return modelInput(data, info.width, info.height, size);
}

/** The phone's runtime (onnxruntime-web, WASM, one thread) on a model file, for measuring in Node. */
export async function loadWebModel(file: string, card: Pick<ModelCard, 'version' | 'thresholds' | 'input_size'>) {
  ortWeb.env.wasm.numThreads = 1;
  const session = await ortWeb.InferenceSession.create(await fs.readFile(file), { executionProviders: ['wasm'] });
  const size = card.input_size;
  return {
    async diagnose(image: Buffer | string): Promise<{ diagnosis: DiagnosisCore; tensor: Float32Array; ms: number }> {
      const { rgb, tensor } = await browserInput(image, size);
      const started = performance.now();
      const out = await session.run({ input: new ortWeb.Tensor('float32', tensor, [1, 3, size, size]) });
      const ms = performance.now() - started;
      const ood = out.ood ? (out.ood.data as Float32Array)[0] : null;
      return { diagnosis: diagnosisFromOutputs(out.logits.data as Float32Array, ood, rgb, card), tensor, ms };
    },
    close: () => session.release(),
  };
}

/** The answer a farmer reads: outcome, class and the unsure flag. */
export const sameAnswer = (a: DiagnosisCore, b: DiagnosisCore) =>
  a.outcome === b.outcome && a.rust_class === b.rust_class && a.unsure === b.unsure;
