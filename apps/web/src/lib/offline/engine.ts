/**
 * The phone's diagnosis (loaded with `import()` only when offline diagnosis is used, so onnxruntime-web
 * stays out of the entry and route chunks): the browser decodes the photo upright, the shared pure-TS
 * code resizes and normalises it and applies the server's rules to the model's outputs.
 */
import * as ort from 'onnxruntime-web/wasm';
import type { AnalysisCrop, OfflineModelInfo } from '@kutu/contract';
import {
  type DiagnosisCore,
  diagnosisFromOutputs,
  fieldDiagnosis,
  leafShowsRust,
  modelInput,
  outputsFor,
  type RustSpots,
  rustReading,
  type Severity,
  severityUnmeasured,
  shownSeverity,
  thresholdsOf,
} from '@kutu/vision/browser';
import i18n from '../i18n.ts';
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
async function diagnoseLeaf(photo: Blob, crop: AnalysisCrop) {
  const { session: s, info } = await session();
  const size = info.input_size;
  const image = await uprightRgba(photo);
  const { rgb, tensor } = modelInput(image.data, image.width, image.height, size);
  const out = await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', tensor, [1, 3, size, size]) });
  const ood = out.ood ? (out.ood.data as Float32Array)[0] : null;
  const outputs = outputsFor(s.outputNames, crop);
  const diagnosis = diagnosisFromOutputs(out[outputs.logits].data as Float32Array, ood, rgb, {
    version: info.version,
    thresholds: thresholdsFor(info),
  });
  // The server's estimate and spots on the same 160 px input (one reading, as the server's classify()).
  const reading = rustReading(rgb, size, crop, image.width / image.height);
  return { diagnosis, info, share: reading.share, spots: reading.spots };
}

/** The card's cuts as the phone stores them (null: off, dropped before deciding). */
const thresholdsFor = (info: OfflineModelInfo) =>
  Object.fromEntries(Object.entries(info.thresholds).filter(([, v]) => v !== null));

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * The field's answer from one to three leaves, as the server makes it (`fieldDiagnosis`, decision 0048):
 * a leaf with no leaf in it answers for the field only when it is the first (the server refuses it
 * as another leaf); the severity is the mean of the leaves' shares, shown for a confident rust answer, with
 * the first leaf's spots circled as the server circles its first photo's. The model's heatmap is for experts
 * (decision 0054), so the phone no longer draws it.
 */
export async function diagnoseFieldOnPhone(
  photos: Blob[],
  crop: AnalysisCrop,
): Promise<{
  diagnosis: DiagnosisCore;
  leaves: DiagnosisCore[];
  info: OfflineModelInfo;
  severity: Severity | null;
  /** A confident rust answer whose share could not be measured on any leaf (as the server's `severity_unmeasured`). */
  unmeasured: boolean;
  spots: RustSpots | null;
  /** Leaves that showed rust on their own (`leafShowsRust`), as the server counts them. */
  rustLeaves: number;
}> {
  const results = [];
  for (const photo of photos) results.push(await diagnoseLeaf(photo, crop));
  const [first] = results;
  const { info } = first;
  const leaves = results.filter((r, i) => i === 0 || r.diagnosis.outcome === 'diagnosis');
  const evidence = leaves.map((r) => ({
    probabilities: r.diagnosis.probabilities,
    leafScore: r.diagnosis.leaf_score,
    oodScore: r.diagnosis.ood_score,
  }));
  const thresholds = thresholdsOf({ version: info.version, thresholds: thresholdsFor(info) });
  const diagnosis =
    leaves.length === 1 || first.diagnosis.outcome !== 'diagnosis'
      ? first.diagnosis
      : fieldDiagnosis(evidence, thresholds, info.version);
  const rustLeaves =
    first.diagnosis.outcome === 'diagnosis' ? evidence.filter((l) => leafShowsRust(l, thresholds)).length : 0;
  const shares = leaves.flatMap((r) => (r.share === null ? [] : [r.share]));
  const answer = { outcome: diagnosis.outcome, rustClass: diagnosis.rust_class, unsure: diagnosis.unsure };
  const share = shares.length > 0 ? mean(shares) : null;
  const severity = shownSeverity(answer, share);
  return {
    diagnosis,
    leaves: results.map((r) => r.diagnosis),
    info,
    severity,
    unmeasured: severityUnmeasured(answer, share),
    spots: severity && first.spots,
    rustLeaves,
  };
}
