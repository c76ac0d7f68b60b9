import crypto from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listImagesRecursive, listLabelledImages, nonLeafDir, packageRoot, toCrop } from './dataset.ts';
import { evaluateModel, type EvalItem, type EvalReport } from './evaluate.ts';
import { answerOf, RECIPE_ANSWER } from './card-settings.ts';
import { type ModelCard, readCard, type Thresholds } from './classifier.ts';
import { thresholdsOf } from './decide.ts';
import { INPUT_SIZE, MEAN, STD } from './preprocess.ts';
import { type View, writeFeatures } from './features.ts';
import { prepareSet, type PreparedItem } from './prepare.ts';
import { readOnnxHead, withFeatureOutput, withOnnxHead } from './onnx-edit.ts';
import { runPythonModule } from './python.ts';
import { owner, sharedFeatureCache } from './work-dir.ts';
import { fitHeadInWorker, HEAD_RECIPE, HEAD_STEPS } from './refit.ts';

export const PYTHON = process.env.KUTU_PYTHON ?? '/usr/bin/python3';
const NONLEAF_CACHE_SIZE = 256;
const PRETRAINED = path.join(packageRoot, 'pretrained/mobilenet_v2_nsfwjs.pt');

/**
 * kutunet: KutuNet from scratch, 128 px (v1 to v1.2). leafnet: a linear head (and ood statistics) on a
 * frozen MobileNetV2: the pretrained one at 224 px, or, when continuing from a KutuLeafNet such as the
 * served v2 (fine-tuned end to end on a GPU, recipe/), that model's own backbone and input size.
 * In-app retraining continues from the active model, so the recipe follows it (docs/decisions/0026).
 */
export type Architecture = 'leafnet' | 'kutunet';

/**
 * A candidate's cuts. One that continues from a model of its own recipe (in-app retraining always continues
 * from the active model) inherits that model's card thresholds: the card is their only source, and its
 * MODEL_CARD.md says how they were chosen ("Risk and coverage"). A network trained from scratch has no card
 * to inherit from and starts from these, the last cuts its recipe had (KutuNet: v1.1's; the frozen
 * leafnet: no ood cuts); they must be re-chosen on its own validation before it is served.
 */
const KUTUNET_START: Thresholds = {
  notLeaf: 0.35,
  unsureBelow: 0.5,
  unsureNotLeafAbove: 0.25,
  minPlantFraction: 0.02,
  minGreenFraction: 0.005,
  minContrast: 0.02,
  oodUnsureAbove: 7.75,
  oodNotLeafAbove: 40,
};
export const FROM_SCRATCH_THRESHOLDS: Record<Architecture, Thresholds> = {
  kutunet: KUTUNET_START,
  leafnet: {
    ...KUTUNET_START,
    unsureBelow: 0.6,
    oodUnsureAbove: Number.POSITIVE_INFINITY,
    oodNotLeafAbove: Number.POSITIVE_INFINITY,
  },
};
/** Temperature of the leafnet head, fitted on by-source validation logits. */
export const LEAFNET_TEMPERATURE = 1;

const RECIPES = {
  leafnet: {
    module: 'trainer.train_head',
    inputSize: 224,
    trainCacheSize: 224,
    architecture:
      'KutuLeafNet: MobileNetV2 (width 1.0, 2.2 M parameters, frozen; weights from nsfwjs 4.4.0, MIT, see pretrained/README.md) + linear head on the pooled 1280 features; outputs logits, class activation maps and an out-of-distribution score',
  },
  kutunet: {
    module: 'trainer.train',
    inputSize: INPUT_SIZE,
    trainCacheSize: 160,
    architecture: 'KutuNet: 5-stage residual CNN, 1.55 M parameters, trained from scratch (no pretrained weights)',
  },
} as const;

export interface TrainProgress {
  stage: 'prepare' | 'train' | 'export' | 'evaluate' | 'done';
  epoch?: number;
  epochs?: number;
  loss?: number;
  done?: number;
  total?: number;
}

export interface TrainOptions {
  /** Folders laid out as `<class>/<image>` (the base dataset). */
  dataDirs: string[];
  /** Extra labelled photos (expert samples), with the crop the farmer named where known. */
  extraSamples?: { path: string; label: string; crop?: string | null }[];
  /** Files never to train on and to evaluate with. */
  evalItems: EvalItem[];
  /** weights.pt of the model to fine-tune (leafnet: warm-start the head); from scratch when absent. */
  initWeights?: string;
  /**
   * The model directory to continue from (model.onnx, model.json). A KutuLeafNet's head is then refitted in
   * Node (docs/decisions/0029): no Python, no weights.pt needed. Defaults to the folder of `initWeights`.
   */
  initFrom?: string;
  /** 'node' (default when continuing from a KutuLeafNet) or 'python' (trainer/train_head.py, for comparison). */
  runtime?: 'node' | 'python';
  /**
   * Where work in progress goes (the feature caches, the trainer's scratch folder); the OS temp folder when
   * absent. The server passes DATA_DIR/tmp and sweeps it at start, so a killed run leaves nothing elsewhere.
   */
  workDir?: string;
  /** Which recipe; by default leafnet when continuing from a KutuLeafNet, else kutunet. */
  arch?: Architecture;
  outDir: string;
  version: string;
  epochs: number;
  /** Caps the number of base images per class (tests). */
  limitPerClass?: number;
  threads?: number;
  extraTrainerArgs?: string[];
  onProgress?: (p: TrainProgress) => void;
  signal?: AbortSignal;
  /** Extra fields for the model card (who trained it, from what). */
  card?: Record<string, unknown>;
}

/** The Python trainer, its progress lines passed on ('done' is this side's to say, after the evaluation). */
function runPython(module: string, args: string[], opts: TrainOptions): Promise<void> {
  return runPythonModule(module, args, {
    threads: opts.threads,
    signal: opts.signal,
    onEvent: (e) => {
      const event = e as TrainProgress;
      opts.onProgress?.(event.stage === 'done' ? { ...event, stage: 'evaluate' } : event);
    },
  });
}

export interface TrainResult {
  modelDir: string;
  metrics: EvalReport;
  seconds: number;
  trainCounts: Record<string, number>;
}

/**
 * Names the backbone a KutuLeafNet is built on: the first 16 hex digits of the SHA-256 of the weights file
 * that brought it (the pretrained file, or the fine-tuned model's). A head refit keeps its parent's
 * backbone and carries this name in its card. The refit's own weights file changes with every new head,
 * so hashing that file would miss the cache.
 */
async function backboneName(card: ModelCard | null, weights: string): Promise<string> {
  if (card?.backbone) return card.backbone;
  return crypto
    .createHash('sha256')
    .update(await fs.readFile(weights))
    .digest('hex')
    .slice(0, 16);
}

const isLeafNet = (card: ModelCard | null) => String(card?.architecture).startsWith('KutuLeafNet');

/**
 * Trains a model with the Python trainer on images decoded by the serving pipeline, writes a complete
 * model directory (model.onnx, weights.pt, model.json) and evaluates it exactly as the server serves it.
 */
export async function trainModel(opts: TrainOptions): Promise<TrainResult> {
  const started = Date.now();
  const initDir = opts.initFrom ?? (opts.initWeights ? path.dirname(opts.initWeights) : undefined);
  const initCard = initDir ? await readCard(initDir).catch(() => null) : null;
  const arch = opts.arch ?? (isLeafNet(initCard) ? 'leafnet' : 'kutunet');
  const recipe = RECIPES[arch];
  // A head refit continues from a KutuLeafNet with its own (possibly fine-tuned) backbone and input size.
  const continued = arch === 'leafnet' && isLeafNet(initCard) ? initCard : null;
  // The cuts of the model continued from, when it is of this recipe (its ood score is on the same scale).
  const inheritFrom = continued ?? (arch === 'kutunet' && initCard && !isLeafNet(initCard) ? initCard : null);
  const inputSize = continued?.input_size ?? recipe.inputSize;
  const initOnnx = initDir ? path.join(initDir, 'model.onnx') : undefined;
  // Continuing from a served KutuLeafNet: features, head and ood statistics in Node (decision 0029).
  const runtime = continued && initOnnx && fsSync.existsSync(initOnnx) ? (opts.runtime ?? 'node') : ('python' as const);
  const backboneWeights = continued && opts.initWeights ? opts.initWeights : PRETRAINED;
  const backbone =
    arch === 'leafnet'
      ? runtime === 'node'
        ? (continued?.backbone ?? (await backboneName(null, initOnnx!)))
        : await backboneName(continued, backboneWeights)
      : undefined;
  const workDir = opts.workDir ?? os.tmpdir();
  await fs.mkdir(workDir, { recursive: true });
  const cache = await fs.mkdtemp(path.join(workDir, `kutu-train-${owner()}@`));
  try {
    const evalFiles = new Set(opts.evalItems.map((i) => path.resolve(i.file)));
    let base = opts.dataDirs.flatMap((d) => listLabelledImages(d));
    if (opts.limitPerClass) {
      const seen: Record<string, number> = {};
      base = base.filter((item) => {
        seen[item.label] = (seen[item.label] ?? 0) + 1;
        return seen[item.label] <= opts.limitPerClass!;
      });
    }
    const extra: PreparedItem[] = (opts.extraSamples ?? []).map((s) => ({
      file: s.path,
      label: s.label,
      setting: 'expert',
      crop: toCrop(s.crop ?? undefined),
    }));
    const train = [...base, ...extra].filter((i) => !evalFiles.has(path.resolve(i.file)));
    const report = (done: number, total: number) => opts.onProgress?.({ stage: 'prepare', done, total });
    let nonLeaf = (fsSync.existsSync(nonLeafDir) ? listImagesRecursive(nonLeafDir) : []).map((file) => ({
      file,
      label: 'not_leaf',
    }));
    // Quick runs in Node compute features for the negatives they use only (Python reads --nonleaf-limit).
    if (runtime === 'node' && opts.limitPerClass) nonLeaf = nonLeaf.slice(0, opts.limitPerClass * 2);
    if (arch === 'kutunet') {
      await prepareSet(cache, 'train', train, recipe.trainCacheSize, report);
      await prepareSet(cache, 'eval', opts.evalItems, recipe.inputSize);
      await prepareSet(cache, 'nonleaf', nonLeaf, NONLEAF_CACHE_SIZE);
    } else {
      // The backbone is frozen: its features are computed once here (onnxruntime), the head is fitted on them.
      // The backbone's ONNX file and the negatives' features never change between runs: kept in a shared cache.
      const shared = await sharedFeatureCache(nonLeaf, backbone!, inputSize, workDir, runtime);
      const backboneOnnx = path.join(shared, 'backbone.onnx');
      const featureOpts = { threads: opts.threads, signal: opts.signal, size: inputSize };
      if (!fsSync.existsSync(path.join(shared, 'nonleaf.json'))) {
        const partial = `${shared}.partial-${owner()}@`;
        await fs.mkdir(partial, { recursive: true });
        try {
          if (runtime === 'node') {
            // The served graph with its pooled layer as an output: the features of the served backbone exactly.
            await fs.writeFile(path.join(partial, 'backbone.onnx'), withFeatureOutput(await fs.readFile(initOnnx!)));
          } else {
            const exportArgs = [path.join(partial, 'backbone.onnx'), backboneWeights, String(inputSize)];
            await runPython('trainer.features', exportArgs, opts);
          }
          const views: View[] = ['orig', 'hflip', 'crop1', 'crop2', 'crop3'];
          await writeFeatures(partial, 'nonleaf', nonLeaf, views, path.join(partial, 'backbone.onnx'), {
            ...featureOpts,
            onProgress: report,
          });
          // Another job may have finished the same cache first: then its copy is used and this one goes.
          await fs.rename(partial, shared).catch(() => undefined);
        } finally {
          // Stopped or failed: a half-written cache never stays behind.
          await fs.rm(partial, { recursive: true, force: true });
        }
      }
      await writeFeatures(cache, 'train', train, ['orig', 'hflip'], backboneOnnx, {
        ...featureOpts,
        onProgress: report,
      });
      for (const file of ['nonleaf.json', 'nonleaf.f32'])
        await fs.copyFile(path.join(shared, file), path.join(cache, file));
    }

    const tmpOut = `${opts.outDir}.partial-${process.pid}`;
    await fs.rm(tmpOut, { recursive: true, force: true });
    try {
      const args = [
        '--cache',
        cache,
        '--out',
        tmpOut,
        '--epochs',
        String(opts.epochs),
        // Quick runs (limitPerClass) get few negatives too, so they finish in seconds.
        ...(opts.limitPerClass
          ? [
              '--synthetic',
              String(Math.min(500, opts.limitPerClass * 4)),
              '--nonleaf-repeats',
              '1',
              '--nonleaf-limit',
              String(opts.limitPerClass * 2),
            ]
          : []),
        ...(opts.extraTrainerArgs ?? []),
      ];
      if (opts.initWeights) args.push('--init', opts.initWeights);
      if (opts.initWeights && arch === 'kutunet') args.push('--lr', '1e-3');
      if (arch === 'leafnet')
        args.push('--temperature', String(continued?.temperature ?? LEAFNET_TEMPERATURE), '--size', String(inputSize));
      if (runtime === 'node')
        await refitInNode(cache, tmpOut, initOnnx!, Number(continued?.temperature ?? LEAFNET_TEMPERATURE), opts);
      else await runPython(recipe.module, args, opts);

      const trainerMetrics = JSON.parse(await fs.readFile(path.join(tmpOut, 'train-metrics.json'), 'utf8'));
      const card: ModelCard = {
        version: opts.version,
        created_at: new Date().toISOString(),
        architecture: continued?.architecture ?? recipe.architecture,
        input_size: inputSize,
        preprocessing: `sharp: EXIF rotate, flatten on white, resize (fill, lanczos3) to ${inputSize}×${inputSize}, RGB, ImageNet mean/std`,
        mean: [...MEAN],
        std: [...STD],
        classes: ['common_rust', 'healthy', 'other_disease', 'not_leaf'],
        thresholds: inheritFrom ? thresholdsOf(inheritFrom) : FROM_SCRATCH_THRESHOLDS[arch],
        // The answer's settings go with the cuts: the parent's when continued, else the recipe's.
        answer: inheritFrom ? answerOf(inheritFrom) : RECIPE_ANSWER,
        ...(arch === 'kutunet' ? {} : { temperature: trainerMetrics.temperature, backbone }),
        training: {
          epochs: opts.epochs,
          fine_tuned_from: initDir ? path.basename(initDir) : null,
          counts: trainerMetrics.train_counts,
          extra_samples: extra.length,
          seconds: trainerMetrics.seconds,
          torch: trainerMetrics.torch,
          ...(trainerMetrics.runtime ? { runtime: trainerMetrics.runtime } : {}),
          recipe: trainerMetrics.recipe,
        },
        ...opts.card,
      };
      await fs.writeFile(path.join(tmpOut, 'model.json'), `${JSON.stringify(card, null, 2)}\n`);
      opts.onProgress?.({ stage: 'evaluate' });
      const metrics = await evaluateModel(tmpOut, opts.evalItems);
      card.metrics = { eval_set: metrics };
      await fs.writeFile(path.join(tmpOut, 'model.json'), `${JSON.stringify(card, null, 2)}\n`);
      await fs.rm(path.join(tmpOut, 'train-metrics.json'), { force: true });
      // Only a complete directory ever appears under the final name.
      await fs.rm(opts.outDir, { recursive: true, force: true });
      await fs.rename(tmpOut, opts.outDir);
      opts.onProgress?.({ stage: 'done' });
      return {
        modelDir: opts.outDir,
        metrics,
        seconds: (Date.now() - started) / 1000,
        trainCounts: trainerMetrics.train_counts,
      };
    } catch (err) {
      await fs.rm(tmpOut, { recursive: true, force: true });
      throw err;
    }
  } finally {
    await fs.rm(cache, { recursive: true, force: true });
  }
}

/**
 * train_head.py's work in Node: the head and the ood statistics fitted on the features in `cache`
 * (in a worker thread), written into a copy of the active model's graph as `<out>/model.onnx`, with the
 * `train-metrics.json` the Python trainer writes. The backbone stays the active model's, byte for byte.
 */
async function refitInNode(
  cache: string,
  out: string,
  initOnnx: string,
  temperature: number | undefined,
  opts: TrainOptions,
): Promise<void> {
  const started = Date.now();
  const served = await fs.readFile(initOnnx);
  const init = readOnnxHead(served);
  const epochs = opts.epochs;
  opts.onProgress?.({ stage: 'train', epoch: 0, epochs });
  const result = await fitHeadInWorker(
    { cache, init, nonleafLimit: opts.limitPerClass ? opts.limitPerClass * 2 : undefined },
    (p) => opts.onProgress?.({ stage: 'train', epoch: 0, epochs, loss: p.loss, done: p.iteration, total: HEAD_STEPS }),
    opts.signal,
  );
  opts.onProgress?.({ stage: 'train', epoch: epochs, epochs, loss: result.loss });
  opts.onProgress?.({ stage: 'export', epoch: epochs, epochs });
  const head = { ...result.head, temperature: temperature ?? init.temperature };
  await fs.mkdir(out, { recursive: true });
  await fs.writeFile(path.join(out, 'model.onnx'), withOnnxHead(served, head));
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const metrics = {
    trainer_eval: null,
    train_counts: result.counts,
    epochs,
    seconds,
    init: true,
    torch: null,
    runtime: `node ${process.version} (head refit in TypeScript, features with onnxruntime-node)`,
    recipe: { ...HEAD_RECIPE, lbfgs_iterations: result.iterations, ood_kept_from_active: result.oodKept },
    temperature: head.temperature,
  };
  await fs.writeFile(path.join(out, 'train-metrics.json'), JSON.stringify(metrics, null, 2));
}
