import { spawn } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listImagesRecursive, listLabelledImages, nonLeafDir, packageRoot } from './dataset.ts';
import { evaluateModel, type EvalItem, type EvalReport } from './evaluate.ts';
import { DEFAULT_THRESHOLDS, type ModelCard } from './classifier.ts';
import { INPUT_SIZE, MEAN, STD } from './preprocess.ts';
import { prepareSet, type PreparedItem } from './prepare.ts';

export const PYTHON = process.env.KUTU_PYTHON ?? '/usr/bin/python3';
const TRAIN_CACHE_SIZE = 160;
const NONLEAF_CACHE_SIZE = 256;

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
  /** Extra labelled photos (expert samples). */
  extraSamples?: { path: string; label: string }[];
  /** Files never to train on and to evaluate with. */
  evalItems: EvalItem[];
  /** weights.pt of the model to fine-tune; from scratch when absent. */
  initWeights?: string;
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

export interface TrainResult {
  modelDir: string;
  metrics: EvalReport;
  seconds: number;
  trainCounts: Record<string, number>;
}

function runTrainer(args: string[], opts: TrainOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const threads = String(opts.threads ?? 2);
    const child = spawn(PYTHON, [path.join(packageRoot, 'trainer/train.py'), ...args], {
      env: { ...process.env, OMP_NUM_THREADS: threads, MKL_NUM_THREADS: threads, KUTU_TRAIN_THREADS: threads },
      // stdin is a pipe the trainer watches: it exits when this process dies (trainer/parent_watch.py).
      stdio: ['pipe', 'pipe', 'pipe'],
      signal: opts.signal,
    });
    let stderr = '';
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const event = JSON.parse(line) as TrainProgress;
          opts.onProgress?.(event.stage === 'done' ? { ...event, stage: 'evaluate' } : event);
        } catch {
          // not a progress line
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code, sig) => {
      if (code === 0) resolve();
      else reject(new Error(`trainer exited with ${sig ?? code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

/**
 * Trains a model with the Python trainer on images decoded by the serving pipeline, writes a complete
 * model directory (model.onnx, weights.pt, model.json) and evaluates it exactly as the server serves it.
 */
export async function trainModel(opts: TrainOptions): Promise<TrainResult> {
  const started = Date.now();
  const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'kutu-train-'));
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
    }));
    const train = [...base, ...extra].filter((i) => !evalFiles.has(path.resolve(i.file)));
    const report = (done: number, total: number) => opts.onProgress?.({ stage: 'prepare', done, total });
    await prepareSet(cache, 'train', train, TRAIN_CACHE_SIZE, report);
    await prepareSet(cache, 'eval', opts.evalItems, INPUT_SIZE);
    const nonLeaf = (fsSync.existsSync(nonLeafDir) ? listImagesRecursive(nonLeafDir) : []).map((file) => ({
      file,
      label: 'not_leaf',
    }));
    await prepareSet(cache, 'nonleaf', nonLeaf, NONLEAF_CACHE_SIZE);

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
          ? ['--synthetic', String(Math.min(500, opts.limitPerClass * 4)), '--nonleaf-repeats', '1']
          : []),
        ...(opts.extraTrainerArgs ?? []),
      ];
      if (opts.initWeights) args.push('--init', opts.initWeights, '--lr', '1e-3');
      await runTrainer(args, opts);

      const trainerMetrics = JSON.parse(await fs.readFile(path.join(tmpOut, 'train-metrics.json'), 'utf8'));
      const card: ModelCard = {
        version: opts.version,
        created_at: new Date().toISOString(),
        architecture: 'KutuNet: 5-stage residual CNN, 1.55 M parameters, trained from scratch (no pretrained weights)',
        input_size: INPUT_SIZE,
        preprocessing:
          'sharp: EXIF rotate, flatten on white, resize (fill, lanczos3) to 128×128, RGB, ImageNet mean/std',
        mean: [...MEAN],
        std: [...STD],
        classes: ['common_rust', 'healthy', 'other_disease', 'not_leaf'],
        thresholds: DEFAULT_THRESHOLDS,
        training: {
          epochs: opts.epochs,
          fine_tuned_from: opts.initWeights ? path.basename(path.dirname(opts.initWeights)) : null,
          counts: trainerMetrics.train_counts,
          extra_samples: extra.length,
          seconds: trainerMetrics.seconds,
          torch: trainerMetrics.torch,
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
