import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type EvalMetrics, type FieldCheck, type TrainingLabel, trainingLabels } from '@kutu/contract';
import {
  answerPhotos,
  type Classifier,
  type Crop,
  evaluateModel,
  type FieldAnswer,
  loadClassifier,
  loadEvalSet as loadPackageEvalSet,
  trainModel,
  type TrainProgress,
} from '@kutu/vision';
import type { Message } from '../i18n/i18n.ts';

/** A retrained candidate against the active model: the rule that decides (modules/training/decision.ts). */
export interface Verdict {
  accepted: boolean;
  /** The rule in words, stored with the version; each expert reads it in their language. */
  rule: Message;
  /** Why this candidate passed or not, with the numbers. */
  reason: Message;
}

/**
 * Decides whether a candidate replaces the active model, from both models' numbers on the same evaluation
 * set and their paired answers on the field photos of each crop.
 */
export type Decide = (candidate: EvalMetrics, active: EvalMetrics, field: FieldCheck) => Verdict;

/** What the retraining job needs from the vision package; the product uses `visionTrainer`. */
export interface EvalItem {
  path: string;
  label: TrainingLabel;
  /** 'field' or 'lab' where known, for accuracy by setting. */
  setting?: string;
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
  /** Folders laid out as `<class>/<image>` (the base dataset); evaluation images in them are skipped. */
  baseDirs: string[];
  /** Expert samples, already without copies of evaluation images; `crop` trains that crop's head too. */
  extraSamples: { path: string; label: TrainingLabel; crop?: string | null }[];
  /** The active model's directory: training starts from its weights. */
  initFrom: string;
  /** Written only when complete (the trainer builds it beside, then renames). */
  outDir: string;
  /** The candidate's version name, written into its model card. */
  version: string;
  epochs?: number;
  evalSet: EvalSet;
  /** Stored in the candidate's model card (job, samples). */
  card?: Record<string, unknown>;
  onProgress: (p: TrainerProgress) => void;
  /** Aborting kills the training process; nothing is left under `outDir`. */
  signal: AbortSignal;
  /** Where the run's work in progress goes (DATA_DIR/tmp, swept at start); the OS temp folder when absent. */
  workDir?: string;
}
export type LoadedClassifier = Classifier;
/** A verified field photo as the field check reads it: the file, the expert's label, the crop its farmer named. */
export interface FieldPhoto {
  path: string;
  label: TrainingLabel;
  crop: Crop | null;
}
export interface Trainer {
  /** The fixed evaluation list (`file` or the vision package's), its paths resolved under `datasetDir`. */
  loadEvalSet(file: string | undefined, datasetDir: string): Promise<EvalSet>;
  /** Trains a candidate; may return its numbers on `req.evalSet` (measured on the finished directory). */
  train(req: TrainRequest): Promise<{ metrics?: EvalMetrics }>;
  evaluate(modelDir: string, evalSet: EvalSet): Promise<EvalMetrics>;
  /** Each photo's answer by the model (right, confidently wrong, unsure), in order: the field check pairs two. */
  answers(modelDir: string, photos: FieldPhoto[]): Promise<FieldAnswer[]>;
  load(modelDir: string): Promise<LoadedClassifier>;
}

/** Fine-tuning from the active weights needs far fewer epochs than the 16 of a training from scratch. */
export const DEFAULT_FINE_TUNE_EPOCHS = 6;

export async function fileSha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await fs.promises.readFile(file))
    .digest('hex');
}

interface RawEvalItem {
  file: string;
  label: string;
  setting?: string;
}

/** Reads an evaluation list: `{ items: [{ file, label, setting? }] }` or a bare array of such items. */
function readEvalList(file: string): RawEvalItem[] {
  const spec = JSON.parse(fs.readFileSync(file, 'utf8')) as { items?: RawEvalItem[] } | RawEvalItem[];
  const items = Array.isArray(spec) ? spec : spec.items;
  if (!Array.isArray(items)) throw new Error(`The evaluation list ${file} has no items`);
  return items;
}

export interface VisionTrainerOptions {
  /** CPU threads for onnxruntime (and PyTorch where used; the trainer's default: 2). */
  threads?: number;
  /** Extra arguments for the Python trainer (tests train tiny models with these). */
  extraTrainerArgs?: string[];
  /**
   * 'node' (the default): a served KutuLeafNet's head is refitted in Node, with no Python (decision 0029).
   * 'python': trainer/train_head.py as before (measurements); a KutuNet always trains in Python.
   */
  runtime?: 'node' | 'python';
  /** Caps base photos per class (tests and quick runs). */
  limitPerClass?: number;
}

/**
 * The product's trainer: the served model's head refitted in Node (features with onnxruntime-node), the
 * vision package's evaluation and ONNX inference.
 */
export function createVisionTrainer(opts: VisionTrainerOptions = {}): Trainer {
  return {
    async loadEvalSet(file, datasetDir) {
      const raw: RawEvalItem[] = file
        ? readEvalList(file).map((i) => ({ ...i, file: path.resolve(datasetDir, i.file) }))
        : loadPackageEvalSet(datasetDir);
      if (raw.length === 0) throw new Error('The evaluation set is empty');
      const items: EvalItem[] = [];
      for (const item of raw) {
        if (!trainingLabels.includes(item.label as TrainingLabel)) {
          throw new Error(`The evaluation set has an unknown label: ${item.label}`);
        }
        if (!fs.existsSync(item.file)) {
          throw new Error(
            `An evaluation image is missing: ${path.relative(datasetDir, item.file)} under ${datasetDir}`,
          );
        }
        items.push({
          path: item.file,
          label: item.label as TrainingLabel,
          setting: item.setting,
          sha256: await fileSha256(item.file),
        });
      }
      const name = file ? path.basename(file) : 'packages/vision/eval-set.json';
      return { name: `${name} (${items.length} images)`, items };
    },

    async train(req) {
      const toProgress = (p: TrainProgress): TrainerProgress => {
        const { stage, epoch, epochs, ...detail } = p;
        return { stage, epoch, epochs, detail };
      };
      const result = await trainModel({
        dataDirs: req.baseDirs,
        extraSamples: req.extraSamples,
        evalItems: req.evalSet.items.map((i) => ({ file: i.path, label: i.label, setting: i.setting })),
        initFrom: req.initFrom,
        // Only a model trained in Python has one; the Python recipes start from it.
        initWeights: fs.existsSync(path.join(req.initFrom, 'weights.pt'))
          ? path.join(req.initFrom, 'weights.pt')
          : undefined,
        runtime: opts.runtime,
        limitPerClass: opts.limitPerClass,
        workDir: req.workDir,
        outDir: req.outDir,
        version: req.version,
        epochs: req.epochs ?? DEFAULT_FINE_TUNE_EPOCHS,
        threads: opts.threads,
        extraTrainerArgs: opts.extraTrainerArgs,
        onProgress: (p) => req.onProgress(toProgress(p)),
        signal: req.signal,
        card: req.card,
      });
      // trainModel evaluates the finished model exactly as `evaluate` would, on the same items.
      return { metrics: result.metrics };
    },

    async evaluate(modelDir, evalSet) {
      return evaluateModel(
        modelDir,
        evalSet.items.map((i) => ({ file: i.path, label: i.label, setting: i.setting })),
      );
    },

    answers: (modelDir, photos) =>
      answerPhotos(
        modelDir,
        photos.map((p) => ({ file: p.path, label: p.label, crop: p.crop })),
      ),

    load: (modelDir) => loadClassifier(modelDir),
  };
}

export const visionTrainer: Trainer = createVisionTrainer();
