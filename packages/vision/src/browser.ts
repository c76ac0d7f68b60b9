/**
 * What the phone's offline diagnosis shares with the server: the input tensor from decoded pixels and the
 * rules that turn the model's outputs into an answer. Pure TypeScript, safe to bundle for the browser
 * (`@kutu/vision/browser`); the runtime (onnxruntime-web) is the caller's.
 */
import type { CardSettings } from './card-settings.ts';
import { CLASSES, colourStats, type DiagnosisCore, decide, softmax } from './decide.ts';
import { classHeat, type HeatGrid } from './heat.ts';
import { rgbaToModelRgb, toTensorData } from './tensor.ts';

export {
  CLASSES,
  type ColourStats,
  colourStats,
  type DiagnosisCore,
  decide,
  type ModelCard,
  type RustClass,
  softmax,
  type Thresholds,
} from './decide.ts';
export {
  combineShares,
  type FieldDiagnosis,
  type FieldRule,
  type FieldSettings,
  fieldDiagnosis,
  fieldLeaves,
  fieldRustShare,
  joinsField,
  type LeafEvidence,
  leafShowsRust,
  type RustSeenRule,
} from './field.ts';
export {
  type AnswerSettings,
  answerOf,
  type CardSettings,
  cardSettings,
  RECIPE_ANSWER,
  type SeverityCuts,
} from './card-settings.ts';
export { classHeat, HEATMAP_SIDE, type HeatGrid, heatmapSize, heatRgba } from './heat.ts';
export {
  bandOf,
  estimateSeverity,
  rustShareOf,
  type Severity,
  severityUnmeasured,
  shownSeverity,
} from './severity.ts';
export { MAX_SPOTS, type RustSpots, rustReading, rustSpots } from './spots.ts';
export { INPUT_SIZE, MEAN, rgbaToModelRgb, STD, toTensorData } from './tensor.ts';

/** The crops a farmer can name with a photo (the app's `analysisCrops`). */
export const CROPS = ['maize', 'beans', 'other'] as const;
export type Crop = (typeof CROPS)[number];

/** The crops a model has a head of its own for (`logits_<crop>` outputs). */
export const cropHeadsOf = (outputNames: readonly string[]): Crop[] =>
  CROPS.filter((c) => outputNames.includes(`logits_${c}`));

/**
 * Which outputs answer for a crop: a model with crop heads has `logits_<crop>` and `cam_<crop>` for the
 * crops it knows; other crops, no crop, and older models use the general `logits` and `cam`.
 */
export function outputsFor(outputNames: readonly string[], crop?: Crop | null): { logits: string; cam: string } {
  if (crop && outputNames.includes(`logits_${crop}`)) return { logits: `logits_${crop}`, cam: `cam_${crop}` };
  return { logits: 'logits', cam: 'cam' };
}

/** The model's input from upright RGBA pixels: the RGB bytes (for the colour checks) and the tensor. */
export function modelInput(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, size: number) {
  const rgb = rgbaToModelRgb(rgba, width, height, size);
  return { rgb, tensor: toTensorData(rgb, size) };
}

/** The answer from the model's `logits` and `ood` outputs, with the card's cuts (`cardSettings`, as the server's). */
export function diagnosisFromOutputs(
  logits: ArrayLike<number>,
  ood: number | null,
  rgb: Uint8Array,
  settings: Pick<CardSettings, 'version' | 'thresholds'>,
): DiagnosisCore {
  return decide(softmax(logits), colourStats(rgb), settings.thresholds, settings.version, ood);
}

/**
 * The heatmap's numbers for an answer: the answered class's map from the `cam` output the crop's head
 * wrote (see `outputsFor`), normalised. Null for "not a leaf" answers and flat maps. The server and the
 * phone both call this, then draw it with `heatRgba`.
 */
export function heatFor(
  diagnosis: Pick<DiagnosisCore, 'outcome' | 'rust_class'>,
  cam: { data: unknown; dims: readonly number[] } | undefined,
): HeatGrid | null {
  if (diagnosis.outcome === 'not_leaf' || !diagnosis.rust_class || !cam) return null;
  return classHeat(cam.data as Float32Array, cam.dims, CLASSES.indexOf(diagnosis.rust_class));
}
export {
  leafPrint,
  PRINT_SIDE,
  PRINT_SOURCE_SIDE,
  printFromText,
  printLikeness,
  printToText,
  SAME_LEAF_AT,
  sameLeaf,
} from './leaf-print.ts';
