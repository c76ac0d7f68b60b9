import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EvalMetrics, TrainingLabel } from '@kutu/contract';

/** What the retraining job needs from the vision package; the product uses `visionTrainer`. */
export interface EvalItem {
  path: string;
  label: TrainingLabel;
  sha256: string;
}
export interface EvalSet {
  /** Where the list came from, stored with each decision. */
  name: string;
  items: EvalItem[];
}
export interface TrainerProgress {
  stage: string;
  epoch?: number;
  epochs?: number;
  detail: Record<string, unknown>;
}
export interface TrainRequest {
  baseDirs: string[];
  extraSamples: { path: string; label: TrainingLabel }[];
  /** The active model's directory: training starts from its weights. */
  initFrom: string;
  outDir: string;
  epochs?: number;
  /** Files with these hashes are never trained on (the evaluation set). */
  excludeSha256: string[];
  evalSet: EvalSet;
  onProgress: (p: TrainerProgress) => void;
  signal: AbortSignal;
}
export interface LoadedClassifier {
  version: string;
  close(): Promise<void>;
}
export interface Trainer {
  loadEvalSet(file?: string): Promise<EvalSet>;
  train(req: TrainRequest): Promise<void>;
  evaluate(modelDir: string, evalSet: EvalSet): Promise<EvalMetrics>;
  load(modelDir: string): Promise<LoadedClassifier>;
}

export async function fileSha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await fs.promises.readFile(file))
    .digest('hex');
}

void path;
export const visionTrainer = {} as Trainer;
