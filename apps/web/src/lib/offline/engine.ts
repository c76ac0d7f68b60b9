/**
 * The phone's diagnosis (loaded with `import()` only when offline diagnosis is used, so onnxruntime-web
 * stays out of the entry and route chunks): the browser decodes the photo upright, the shared pure-TS
 * code resizes and normalises it and applies the server's rules to the model's outputs.
 */
import * as ort from 'onnxruntime-web/wasm';
import type { AnalysisCrop, OfflineModelInfo } from '@kutu/contract';
import { type DiagnosisCore, diagnosisFromOutputs, modelInput, outputsFor, rustReading } from '@kutu/vision/browser';
import i18n from '../i18n.ts';
import { fieldOnPhone, type PhoneField, type PhoneLeaf, phoneSettings } from './field-answer.ts';
import { storedFiles } from './model.ts';

let loaded: { version: string; session: ort.InferenceSession; info: OfflineModelInfo } | null = null;

async function session() {
  const { info, model, runtime } = await storedFiles();
  if (loaded?.version === info.version) return loaded;
  // The runtime comes from Cache Storage, so nothing is fetched while offline; one thread needs no
  // cross-origin isolation.
  ort.env.wasm.wasmBinary = runtime;
  ort.env.wasm.numThreads = 1;
  const created = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
  await loaded?.session.release();
  loaded = { version: info.version, session: created, info };
  return loaded;
}

async function uprightRgba(photo: Blob) {
  const bitmap = await createImageBitmap(photo, { imageOrientation: 'from-image' });
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error(i18n.t('offline.errors.cannotReadPhoto'));
    ctx.drawImage(bitmap, 0, 0);
    return ctx.getImageData(0, 0, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

/** One leaf through the same head as the server's for the crop the farmer named (see the model's crop heads). */
async function diagnoseLeaf(photo: Blob, crop: AnalysisCrop): Promise<PhoneLeaf & { info: OfflineModelInfo }> {
  const { session: s, info } = await session();
  const size = info.input_size;
  const image = await uprightRgba(photo);
  const { rgb, tensor } = modelInput(image.data, image.width, image.height, size);
  const out = await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', tensor, [1, 3, size, size]) });
  const ood = out.ood ? (out.ood.data as Float32Array)[0] : null;
  const outputs = outputsFor(s.outputNames, crop);
  const settings = phoneSettings(info, crop);
  const diagnosis = diagnosisFromOutputs(out[outputs.logits].data as Float32Array, ood, rgb, settings);
  // The server's estimate and spots on the same 160 px input (one reading, as the server's classify()).
  const reading = rustReading(rgb, size, crop, image.width / image.height, settings.answer.leafConfidence);
  return { diagnosis, info, share: reading.share, spots: reading.spots };
}

/**
 * The field's answer from one to three leaves, as the server makes it (`fieldOnPhone`, decision 0048), with
 * each leaf's own answer. The model's heatmap is for experts (decision 0054), so the phone no longer draws it.
 */
export async function diagnoseFieldOnPhone(
  photos: Blob[],
  crop: AnalysisCrop,
): Promise<PhoneField & { leaves: DiagnosisCore[]; info: OfflineModelInfo }> {
  const results = [];
  for (const photo of photos) results.push(await diagnoseLeaf(photo, crop));
  const { info } = results[0];
  return { ...fieldOnPhone(results, phoneSettings(info, crop)), leaves: results.map((r) => r.diagnosis), info };
}
