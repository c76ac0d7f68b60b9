import fs from 'node:fs/promises';
import * as ortWeb from 'onnxruntime-web';
import sharp from 'sharp';
import {
  type Crop,
  type DiagnosisCore,
  diagnosisFromOutputs,
  type HeatGrid,
  heatFor,
  type ModelCard,
  modelInput,
  outputsFor,
} from './browser.ts';
import { cardSettings } from './card-settings.ts';

export * from './offline-info.ts';

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
  const settings = cardSettings(card);
  return {
    async diagnose(
      image: Buffer | string,
      crop?: Crop | null,
    ): Promise<{ diagnosis: DiagnosisCore; heat: HeatGrid | null; tensor: Float32Array; ms: number }> {
      const { rgb, tensor } = await browserInput(image, size);
      const started = performance.now();
      const out = await session.run({ input: new ortWeb.Tensor('float32', tensor, [1, 3, size, size]) });
      const ms = performance.now() - started;
      const ood = out.ood ? (out.ood.data as Float32Array)[0] : null;
      const outputs = outputsFor(session.outputNames, crop);
      const diagnosis = diagnosisFromOutputs(out[outputs.logits].data as Float32Array, ood, rgb, settings);
      return { diagnosis, heat: heatFor(diagnosis, out[outputs.cam]), tensor, ms };
    },
    close: () => session.release(),
  };
}

/** The answer a farmer reads: outcome, class and the unsure flag. */
export const sameAnswer = (a: DiagnosisCore, b: DiagnosisCore) =>
  a.outcome === b.outcome && a.rust_class === b.rust_class && a.unsure === b.unsure;
