import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from './dataset.ts';

// What the phone shares with the server (field rule, answer settings, leaf prints, …); the names this file
// also exports below are the server's own versions (Node's decoding, the PNG heatmap) and take precedence.
export * from './browser.ts';

export {
  CLASSES,
  type RustClass,
  defaultDatasetDir,
  describeFile,
  toCrop,
  listLabelledImages,
  listImagesRecursive,
  loadEvalSet,
} from './dataset.ts';
export {
  type Classifier,
  type ClassifyOptions,
  type Crop,
  type ColourStats,
  colourStats,
  type Diagnosis,
  type DiagnosisCore,
  type ModelCard,
  type Thresholds,
  decide,
  loadClassifier,
  plantFraction,
  readCard,
} from './classifier.ts';
export { classHeat, HEATMAP_SIDE, type HeatGrid, heatmapPng } from './heatmap.ts';
export { answerPhotos, evaluateClassifier, evaluateModel, type EvalItem, type EvalReport } from './evaluate.ts';
export {
  checkCrops,
  compareOnEvalSet,
  type CropCheck,
  type EvalSetFigures,
  FIELD_GATE,
  type FieldAnswer,
  fieldAnswer,
  fieldJudgedByCheck,
  holdsOutFarmer,
  overallOnly,
  type PairedPhoto,
} from './field-gate.ts';
export { nonInferiorityP } from './non-inferiority.ts';
export { type CutPhoto, clopperPearsonUpper, FIELD_CUT, type FieldCut, fieldCut } from './field-cut.ts';
export {
  INT8_FILE,
  MIN_INT8_AGREEMENT,
  OFFLINE_INFO_FILE,
  type OfflineFileInfo,
  readOfflineInfo,
  sha256,
} from './offline-info.ts';
export { decodeRgb, INPUT_SIZE, preprocess, toTensorData } from './preprocess.ts';
export { type OnnxHead, readOnnxHead, withOnnxHead } from './onnx-edit.ts';
export {
  bandOf,
  estimateSeverity,
  SEVERITY_BANDS,
  type Severity,
  type SeverityBand,
  severityUnmeasured,
  shownShare,
  shownSeverity,
} from './severity.ts';
export { type RustSpots, rustSpots } from './spots.ts';
export {
  PYTHON,
  trainModel,
  type TrainOptions,
  type TrainProgress,
  type TrainResult,
} from './train.ts';
export { sweepWorkDir } from './work-dir.ts';

export const modelsDir = path.join(packageRoot, 'models');

/** The committed model that ships with Kutu (models/current.json names it). */
export function defaultModelDir(): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(modelsDir, 'current.json'), 'utf8')) as { version: string };
  return path.join(modelsDir, version);
}
export { photoPrint } from './photo-print.ts';
