/**
 * Retraining's head refit in Node (docs/decisions/0029): the served KutuLeafNet's backbone is frozen, so
 * a retraining computes its pooled features with onnxruntime (the served model.onnx with the pooled
 * layer exposed, onnx-edit.ts), fits the linear head and the ood statistics on them (head-fit.ts, in a
 * worker thread), and writes the new head into a copy of the served graph. Same recipe as
 * trainer/train_head.py; no Python at run time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CLASSES } from './decide.ts';
import { fitLinear, oodStatistics, sampleWeights } from './head-fit.ts';
import type { OnnxHead } from './onnx-edit.ts';

/** trainer/validate.py's DEFAULT_RECIPE. */
export const HEAD_RECIPE = { views: 2, field_boost: 2, l2: 1e-3, neg_weight: 1, ood_k: 64 } as const;
/** L-BFGS iterations of the head fit (head.py: max_iter=100); progress counts them. */
export const HEAD_STEPS = 100;
/** Below this many training photos the active model's ood statistics are kept (trainer/train.py). */
export const MIN_OOD_PHOTOS = 500;
const NOT_LEAF = 3;
const FIELD_GROUPS = ['ibean', 'plantdoc', 'expert'];

export interface FeatureMeta {
  views: string[];
  count: number;
  dims: number;
  items: { file: string; label: string; source?: string; setting?: string }[];
}

export interface FitJob {
  /** A folder with train.json/.f32 and nonleaf.json/.f32 (features.ts). */
  cache: string;
  /** The active model's head: warm start, and its ood statistics when too few photos. */
  init: OnnxHead;
  nonleafLimit?: number;
}

export interface FitResult {
  head: OnnxHead;
  counts: Record<string, number>;
  loss: number;
  iterations: number;
  oodKept: boolean;
  seconds: number;
}

/** A feature file's rows (views × items × dims, view-major) and what they are. */
export interface FeatureSet {
  meta: FeatureMeta;
  data: Float32Array;
}

export function loadFeatures(cache: string, name: string): FeatureSet | null {
  const metaFile = path.join(cache, `${name}.json`);
  if (!fs.existsSync(metaFile)) return null;
  const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as FeatureMeta;
  const raw = fs.readFileSync(path.join(cache, `${name}.f32`));
  const data = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  return { meta, data };
}

const sourceOf = (file: string) => path.basename(file).split('__')[0];

type OnProgress = (p: { stage: 'train'; iteration: number; loss: number }) => void;

/** The refit itself, synchronous (runs in the worker). */
export function fitHeadOnFeatures(job: FitJob, onProgress: OnProgress = () => {}): FitResult {
  const train = loadFeatures(job.cache, 'train');
  if (!train || train.meta.count === 0) throw new Error('no training images (train.json missing or empty)');
  return fitHeadOnSets(train, loadFeatures(job.cache, 'nonleaf'), job, onProgress);
}

/**
 * The refit on features in memory (a research run refits many heads on one cache). `keepOod` keeps the
 * active model's ood statistics whatever the number of photos.
 */
export function fitHeadOnSets(
  train: FeatureSet,
  neg: FeatureSet | null,
  job: Pick<FitJob, 'init' | 'nonleafLimit'> & { keepOod?: boolean },
  onProgress: OnProgress = () => {},
): FitResult {
  const started = Date.now();
  const dims = train.meta.dims;
  if (dims !== job.init.features) throw new Error(`features of ${dims} values for a head on ${job.init.features}`);
  const views = Math.min(HEAD_RECIPE.views, train.meta.views.length);
  const leafRows = views * train.meta.count;
  const negPerView = neg ? Math.min(neg.meta.count, job.nonleafLimit ?? neg.meta.count) : 0;
  const negRows = neg ? neg.meta.views.length * negPerView : 0;
  const rows = leafRows + negRows;
  const x = new Float32Array(rows * dims);
  const y = new Int32Array(rows);
  const groups: string[] = new Array(rows);
  const labels = train.meta.items.map((i) => CLASSES.indexOf(i.label as (typeof CLASSES)[number]));
  if (labels.some((l) => l < 0)) throw new Error('a training photo has an unknown label');
  const sources = train.meta.items.map((i) => (i.setting === 'expert' ? 'expert' : (i.source ?? sourceOf(i.file))));
  // Leaf photos: view-major, as the feature file is.
  x.set(train.data.subarray(0, leafRows * dims), 0);
  for (let v = 0; v < views; v++)
    for (let i = 0; i < train.meta.count; i++) {
      y[v * train.meta.count + i] = labels[i];
      groups[v * train.meta.count + i] = sources[i];
    }
  if (neg) {
    for (let v = 0; v < neg.meta.views.length; v++) {
      const from = v * neg.meta.count * dims;
      x.set(neg.data.subarray(from, from + negPerView * dims), (leafRows + v * negPerView) * dims);
    }
    for (let r = leafRows; r < rows; r++) {
      y[r] = NOT_LEAF;
      groups[r] = 'negatives';
    }
  }
  const weights = sampleWeights(y, groups, HEAD_RECIPE.field_boost, FIELD_GROUPS);
  for (let r = leafRows; r < rows; r++) weights[r] *= HEAD_RECIPE.neg_weight;
  const { init } = job;
  const fit = fitLinear(x, y, weights, dims, {
    classes: init.classes,
    l2: HEAD_RECIPE.l2,
    steps: HEAD_STEPS,
    init: { weight: init.weight, bias: init.bias },
    onStep: (iteration, loss) => onProgress({ stage: 'train', iteration, loss }),
  });
  // The ood statistics: from the leaf photos (both views), with the active model's k (the graph divides by it).
  const k = Math.min(HEAD_RECIPE.ood_k, init.oodK, leafRows - 4);
  const initHasOod = init.oodMeans.some((v) => v !== 0);
  const keep = (initHasOod && (job.keepOod || train.meta.count < MIN_OOD_PHOTOS)) || k !== init.oodK;
  const ood = keep
    ? { projection: init.oodProjection, means: init.oodMeans }
    : oodStatistics(x.subarray(0, leafRows * dims), y.subarray(0, leafRows), dims, init.leafClasses, k);
  const counts: Record<string, number> = {};
  for (const [i, c] of [...CLASSES, 'not_leaf'].entries()) counts[c] = y.filter((v) => v === i).length;
  return {
    head: {
      ...init,
      weight: fit.weight,
      bias: fit.bias,
      oodProjection: ood.projection,
      oodMeans: ood.means,
    },
    counts,
    loss: fit.loss,
    iterations: fit.iterations,
    oodKept: keep,
    seconds: (Date.now() - started) / 1000,
  };
}

/** Runs `fitHeadOnFeatures` in a worker thread; aborting terminates it. */
export function fitHeadInWorker(
  job: FitJob,
  onProgress: (p: { stage: 'train'; iteration: number; loss: number }) => void,
  signal?: AbortSignal,
): Promise<FitResult> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./head-worker.ts', import.meta.url), { workerData: job });
    const abort = () => {
      void worker.terminate();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    worker.on('message', (m: { type: string } & Record<string, unknown>) => {
      if (m.type === 'progress') onProgress(m as never);
      else if (m.type === 'done') {
        done();
        resolve(m.result as FitResult);
        void worker.terminate();
      } else if (m.type === 'error') {
        done();
        const err = new Error(String(m.message));
        err.stack = String(m.stack ?? m.message);
        reject(err);
        void worker.terminate();
      }
    });
    worker.on('error', (err) => {
      done();
      reject(err);
    });
    worker.on('exit', (code) => {
      done();
      if (code !== 0) reject(new Error(`the head refit stopped (exit ${code})`));
    });
  });
}
